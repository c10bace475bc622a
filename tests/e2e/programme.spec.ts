/**
 * An operator steers a wall without touching it: creates a group, moves the named wall into it,
 * schedules a scene for the group from the next minute, sees the week timeline, starts and
 * releases a takeover — the wall follows each step without a reload. Screenshots of the Screens
 * and Schedule tabs at 1440 and 768 px, with axe.
 */
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import path from 'node:path';
import { signIn } from './support/admin.ts';
import { expect, test, world } from './support/fixtures.ts';

const ARTIFACTS = path.resolve(import.meta.dirname, '../artifacts');
const { scenes } = world;

async function noSeriousViolations(page: Page, label: string) {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  const blocking = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  expect(blocking, label).toEqual([]);
}

const pad = (n: number) => String(n).padStart(2, '0');

test('an operator groups a wall, schedules its group, takes over and releases — the wall follows without a reload', async ({ browser, baseURL, api }) => {
  test.setTimeout(150_000);
  const wallContext = await browser.newContext({ baseURL, viewport: { width: 1280, height: 720 } });
  const wall = await wallContext.newPage();
  const adminContext = await browser.newContext({ baseURL, viewport: { width: 1440, height: 900 } });
  const admin = await adminContext.newPage();
  const title = wall.getByRole('heading', { level: 1 });
  try {
    await wall.goto('/app?name=Lobby%20wall');
    await expect(title).toHaveText(scenes.morning.name);
    await wall.evaluate(() => Object.assign(window, { __sameDocument: true }));

    await signIn(admin, '/admin/screens');
    // A group of its own, with the group's own scene.
    await admin.getByLabel('New group').fill('Lobby');
    await admin.getByRole('button', { name: 'Create group' }).click();
    const lobby = admin.locator('.group-row[data-group="lobby"]');
    await expect(lobby).toBeVisible();
    await lobby.getByLabel('Scene of Lobby').selectOption({ label: scenes.peaks.name });

    // The named wall moves into it from its row, and shows the group's scene, saying why.
    const row = admin.locator('.screen-row[data-screen-name="Lobby wall"]').filter({ hasText: 'Online' });
    await row.getByLabel('Group of Lobby wall').selectOption({ label: 'Lobby' });
    await expect(title).toHaveText(scenes.peaks.name);
    await expect(row.locator('.screen-row__shows')).toContainText(`Shows ${scenes.peaks.name} · by its group's scene`);

    // A schedule for the group from the next minute, in the browser's time zone.
    await admin.getByRole('link', { name: /^Schedule/ }).click();
    await admin.getByRole('button', { name: 'Add schedule entry' }).click();
    const dialog = admin.getByRole('dialog', { name: 'Add schedule entry' });
    const start = new Date(Date.now() + 60_000);
    const end = new Date(start.getTime() + 2 * 3_600_000);
    await dialog.getByLabel('Name (optional)').fill('Ocean hour');
    await dialog.getByLabel('Scene').selectOption({ label: scenes.ocean.name });
    await dialog.getByLabel('Some groups').check();
    await dialog.getByLabel('Lobby').check();
    await dialog.getByLabel('Once').check();
    const local = (d: Date) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
    await dialog.getByLabel('Starts').fill(local(start));
    await dialog.getByLabel('Ends').fill(local(end));
    await dialog.getByRole('button', { name: 'Add entry' }).click();
    await expect(dialog).toBeHidden();
    // The week timeline shows the hour on Lobby's row (each run says its scene and why on hover).
    await expect(admin.getByRole('group', { name: 'What plays on Lobby this week' }).locator(`.week__run[title*="${scenes.ocean.name} (by its group's schedule)"]`)).not.toHaveCount(0);

    // At the boundary the server switches the group: the wall shows the scheduled scene.
    await expect(title).toHaveText(scenes.ocean.name, { timeout: 90_000 });

    for (const [width, height] of [[1440, 900], [768, 1024]] as const) {
      await admin.setViewportSize({ width, height });
      await admin.goto('/admin/schedule');
      await expect(admin.getByRole('group', { name: 'What plays on Lobby this week' })).toBeVisible();
      await noSeriousViolations(admin, `schedule at ${width}`);
      await admin.screenshot({ path: path.join(ARTIFACTS, `admin-schedule-${width}.png`), fullPage: width !== 1440 });
    }
    await admin.setViewportSize({ width: 1440, height: 900 });

    // Takeover: one click on every screen, one click back.
    await admin.goto('/admin/screens');
    await admin.getByRole('button', { name: 'Show on every screen now…' }).click();
    const form = admin.getByRole('form', { name: 'Start a takeover' });
    await form.getByLabel('Scene').selectOption({ label: scenes.evening.name });
    await form.getByLabel('Banner (optional)').fill('The director speaks at 15:00');
    await form.getByRole('button', { name: 'Start takeover' }).click();
    await expect(title).toHaveText(scenes.evening.name);
    const banner = wall.locator('.screen-banner');
    await expect(banner).toHaveText('The director speaks at 15:00');
    await wall.screenshot({ path: path.join(ARTIFACTS, 'wall-takeover-banner.png') });
    await expect(admin.getByRole('status', { name: 'Takeover' })).toContainText(`Takeover: ${scenes.evening.name} on every screen`);
    await expect(row.locator('.screen-row__shows')).toContainText('by the takeover');
    for (const [width, height] of [[1440, 900], [768, 1024]] as const) {
      await admin.setViewportSize({ width, height });
      await noSeriousViolations(admin, `screens with a takeover at ${width}`);
      await admin.screenshot({ path: path.join(ARTIFACTS, `admin-screens-takeover-${width}.png`), fullPage: width !== 1440 });
    }
    await admin.getByRole('button', { name: 'Release takeover' }).click();
    await expect(title).toHaveText(scenes.ocean.name);
    await expect(banner).toHaveCount(0);

    // Never reloaded: the page that opened is the page that followed every step.
    expect(await wall.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
  } finally {
    // Leave the building as it was for the other specs.
    await api.request('DELETE', '/takeover').catch(() => undefined);
    const programme = await api.request<{ groups: { id: number; slug: string }[]; schedules: { id: number; name: string | null }[] }>('GET', '/programme');
    for (const entry of programme.schedules.filter((e) => e.name === 'Ocean hour')) await api.request('DELETE', '/schedules', { id: entry.id });
    for (const group of programme.groups.filter((g) => g.slug === 'lobby')) await api.request('DELETE', '/screen-groups', { id: group.id });
    await wallContext.close();
    await adminContext.close();
  }
});
