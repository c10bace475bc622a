/**
 * A team, not one password: the admin invites an operator from the Team tab; the operator opens
 * the one-time link, chooses a password and lands in the console signed in, with their name and
 * role in the header; they switch the default scene, find stream deletion disabled with the
 * reason on hover, and do not see the Team tab; the Activity log names both people. Screenshots
 * of the Team tab at 1440 and 768 px (and the link's page), axe clean.
 */
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import path from 'node:path';
import { signIn } from './support/admin.ts';
import { expect, test, world } from './support/fixtures.ts';

const ARTIFACTS = path.resolve(import.meta.dirname, '../artifacts');
const OPERATOR = { username: `ollie-${Date.now().toString(36)}`, password: 'ollie runs the walls' };

async function noSeriousViolations(page: Page, label: string) {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  const blocking = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  expect(blocking, label).toEqual([]);
}

test('an admin invites an operator, who joins, switches the default scene and may not delete streams', async ({ browser, baseURL }) => {
  test.setTimeout(120_000);
  const adminContext = await browser.newContext({ baseURL, viewport: { width: 1440, height: 900 } });
  const operatorContext = await browser.newContext({ baseURL, viewport: { width: 1440, height: 900 } });
  const admin = await adminContext.newPage();
  const operator = await operatorContext.newPage();
  try {
    await signIn(admin, '/admin/team');
    await expect(admin.locator('.admin__user')).toContainText('Admin');
    const invite = admin.getByRole('form', { name: 'Invite a person' });
    await invite.getByLabel('Username').fill(OPERATOR.username);
    await invite.getByLabel('Role').selectOption('operator');
    await invite.getByRole('button', { name: 'Invite' }).click();
    const linkBox = admin.getByLabel(`One-time link for ${OPERATOR.username}`);
    await expect(linkBox).toHaveValue(new RegExp(`/welcome#[A-Za-z0-9_-]{20,}$`));
    const link = await linkBox.inputValue();
    const row = admin.locator(`tr[data-account="${OPERATOR.username}"]`);
    await expect(row).toContainText('Invited');
    await expect(row.getByLabel(`Role of ${OPERATOR.username}`)).toHaveValue('operator');

    await admin.screenshot({ path: path.join(ARTIFACTS, 'admin-team-1440.png'), fullPage: true });
    await noSeriousViolations(admin, 'team tab at 1440');
    await admin.setViewportSize({ width: 768, height: 1024 });
    await expect(row).toBeVisible();
    await admin.screenshot({ path: path.join(ARTIFACTS, 'admin-team-768.png'), fullPage: true });
    await noSeriousViolations(admin, 'team tab at 768');

    // The person opens the link: it says whose it is and with which role.
    await operator.goto(new URL(link).pathname + new URL(link).hash);
    await expect(operator.getByRole('heading', { name: `Welcome, ${OPERATOR.username}` })).toBeVisible();
    await expect(operator.locator('.login__hint')).toContainText('operator');
    await expect(operator).toHaveURL(/\/welcome$/); // the secret left the address bar
    await operator.screenshot({ path: path.join(ARTIFACTS, 'welcome-1440.png'), fullPage: true });
    await noSeriousViolations(operator, 'welcome page');
    await operator.getByLabel('New password').fill(OPERATOR.password);
    await operator.getByLabel('Repeat it').fill(OPERATOR.password);
    await operator.getByRole('button', { name: 'Join and sign in' }).click();
    await expect(operator).toHaveURL(/\/admin\/streams$/);
    await expect(operator.locator('.admin__user')).toContainText(OPERATOR.username);
    await expect(operator.locator('.admin__user .role-badge')).toHaveText('Operator');
    // Not an admin: no Team tab, no API tokens.
    await expect(operator.getByRole('link', { name: 'Team' })).toHaveCount(0);
    await expect(operator.getByRole('link', { name: 'API tokens' })).toHaveCount(0);

    // Stream deletion: there, disabled, the reason on hover.
    const del = operator.getByRole('button', { name: `Delete ${world.streams.forest.name}` });
    await expect(del).toBeDisabled();
    await expect(del).toHaveAttribute('title', 'This needs the curator role or higher; you are an operator.');

    // Switching the default scene: allowed.
    await operator.getByRole('link', { name: 'Scenes' }).click();
    await operator.getByLabel('Walls and kiosks show').selectOption(String(world.scenes.ocean.id));
    await operator.getByRole('button', { name: 'Switch all screens' }).click();
    await expect(operator.locator('.default-selector')).toContainText(`Last changed by ${OPERATOR.username}`);

    // The Activity log names both: the admin who invited, the operator who switched.
    await admin.setViewportSize({ width: 1440, height: 900 });
    await admin.getByRole('link', { name: 'Activity' }).click();
    const rows = admin.locator('.admin__main tbody tr');
    await expect(rows.filter({ hasText: `account invited "${OPERATOR.username}"` }).filter({ has: admin.locator('td:nth-child(2)', { hasText: /^admin$/ }) })).toHaveCount(1);
    await expect(rows.filter({ hasText: 'default scene' }).filter({ has: admin.locator('td:nth-child(2)', { hasText: OPERATOR.username }) }).first()).toBeVisible();
    await expect(rows.filter({ hasText: `account joined: "${OPERATOR.username}"` }).first()).toBeVisible();

    // Demoted to viewer while the console is open: the header says so at once, without a reload.
    await admin.getByRole('link', { name: 'Team' }).click();
    await admin.getByLabel(`Role of ${OPERATOR.username}`).selectOption('viewer');
    await expect(operator.locator('.admin__user .role-badge')).toHaveText('Viewer');
  } finally {
    await adminContext.close();
    await operatorContext.close();
  }
});
