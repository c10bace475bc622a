/** Screenshots of every console tab and the scene editor, at 1440×900 and at 768 px, with an axe scan each. */
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import path from 'node:path';
import { expect, test } from './support/fixtures.ts';
import { signIn } from './support/admin.ts';

const ARTIFACTS = path.resolve(import.meta.dirname, '../artifacts');

async function noSeriousViolations(page: Page, label: string) {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  const blocking = results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  expect(blocking, label).toEqual([]);
}

for (const [width, height] of [
  [1440, 900],
  [768, 1024],
] as const) {
  test(`the console at ${width} px: every tab and the scene editor`, async ({ page }) => {
    test.setTimeout(120_000); // a dozen axe scans, each a few seconds on a busy two-core machine
    await page.setViewportSize({ width, height });
    await signIn(page, '/admin/streams');
    for (const tab of ['streams', 'scenes', 'screens', 'schedule', 'discovery', 'submissions', 'ratings', 'alerts', 'activity', 'tokens']) {
      await page.goto(`/admin/${tab}`);
      await expect(page.getByRole('link', { name: new RegExp(`^${tab === 'tokens' ? 'API tokens' : tab}`, 'i') })).toHaveAttribute('aria-current', 'page');
      await expect(page.locator('.admin__main .panel').first()).toBeVisible();
      await page.waitForLoadState('networkidle').catch(() => undefined);
      await noSeriousViolations(page, tab);
      await page.screenshot({ path: path.join(ARTIFACTS, `admin-${tab}-${width}.png`), fullPage: width !== 1440 });
    }
    await page.goto('/admin/scenes');
    await page.getByRole('button', { name: 'Edit Morning Canopy' }).click();
    await expect(page.getByRole('dialog')).toBeVisible();
    await noSeriousViolations(page, 'scene editor');
    await page.screenshot({ path: path.join(ARTIFACTS, `admin-scene-editor-${width}.png`) });
    await page.keyboard.press('Escape');
    await page.goto('/admin/streams');
    await page.getByRole('button', { name: /^Edit / }).first().click();
    await expect(page.getByRole('dialog', { name: 'Edit Stream' })).toBeVisible();
    await noSeriousViolations(page, 'edit stream modal');
    await page.screenshot({ path: path.join(ARTIFACTS, `admin-edit-stream-${width}.png`) });
  });
}
