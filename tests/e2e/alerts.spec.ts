/**
 * Operators know before visitors do: a camera the server holds offline is on a wall with nothing
 * to replace it — the wall's tile says OFFLINE (never LIVE), and the Alerts tab shows the open
 * incident as soon as the watch sees it, without a reload, with the message it sent. Screenshots
 * of the Alerts tab at 1440 and 768 px, with axe.
 */
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import path from 'node:path';
import type { AlertsOverviewDto } from '../../src/shared/api/index.ts';
import { signIn } from './support/admin.ts';
import { expect, SHOWN_SIDE, shownCard, test, world } from './support/fixtures.ts';

const ARTIFACTS = path.resolve(import.meta.dirname, '../artifacts');
const { scenes, streams } = world;

async function noSeriousViolations(page: Page, label: string) {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  const blocking = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  expect(blocking, label).toEqual([]);
}

test('a dead camera on a wall: the tile says OFFLINE and the Alerts tab shows the incident live', async ({ browser, baseURL, api }) => {
  test.setTimeout(120_000);
  const overview = await api.request<AlertsOverviewDto>('GET', '/alerts');
  const rule = overview.rules.find((r) => r.kind === 'stream_unhealthy' && r.group_id === null)!;
  await api.request('PUT', '/alerts/rules', { id: rule.id, for_seconds: 0 });
  // A receiver that is down: the console shows the message failing with its answer, then retried.
  await api.request('POST', '/alerts/destinations', { name: 'Duty webhook', kind: 'webhook', url: `${process.env.NW_MEDIA_URL}/no-such-hook` });

  const wallContext = await browser.newContext({ baseURL, viewport: { width: 1280, height: 720 } });
  const wall = await wallContext.newPage();
  const adminContext = await browser.newContext({ baseURL, viewport: { width: 1440, height: 900 } });
  const admin = await adminContext.newPage();
  try {
    await wall.goto(`/scenes/${scenes.offline.slug}`);
    await signIn(admin, '/admin/alerts');
    await expect(admin.getByRole('heading', { name: 'Open incidents' })).toBeVisible();

    // Two failed checks in a row make a stream offline (src/shared/quality/health.ts).
    for (let i = 0; i < 2; i++) await api.request('POST', '/quality?action=analyze', { streamId: streams.offline.id, force: true, wait: true });

    const card = shownCard(wall, streams.offline.name);
    await expect(card.locator(`.badge--offline${SHOWN_SIDE}`)).toContainText('OFFLINE');
    await expect(card.locator(`.badge--live${SHOWN_SIDE}`)).toHaveCount(0);

    const incident = admin.locator('.incident', { hasText: `Stream "${streams.offline.name}" is offline on a wall` });
    await expect(incident).toBeVisible({ timeout: 30_000 });
    await expect(incident.locator('.incident__state')).toHaveText('Firing');
    await expect(admin.getByRole('link', { name: /^Alerts/ })).toContainText('1');
    const delivery = admin.getByRole('table', { name: 'Deliveries' }).locator('tr', { hasText: 'Duty webhook' }).first();
    await expect(delivery).toContainText('HTTP 404', { timeout: 30_000 });

    await admin.screenshot({ path: path.join(ARTIFACTS, 'admin-alerts-1440.png'), fullPage: true });
    await noSeriousViolations(admin, 'alerts tab at 1440');
    await admin.setViewportSize({ width: 768, height: 1024 });
    await expect(incident).toBeVisible();
    await admin.screenshot({ path: path.join(ARTIFACTS, 'admin-alerts-768.png'), fullPage: true });
    await noSeriousViolations(admin, 'alerts tab at 768');
  } finally {
    await wallContext.close();
    await adminContext.close();
    // Quiet again for the specs after this one.
    const now = await api.request<AlertsOverviewDto>('GET', '/alerts');
    for (const d of now.destinations) await api.request('DELETE', '/alerts/destinations', { id: d.id });
    await api.request('PUT', '/alerts/rules', { id: rule.id, for_seconds: 120 });
  }
});
