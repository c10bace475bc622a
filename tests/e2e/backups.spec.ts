/**
 * The console's Backups tab (issue 42): "Back up now" writes a backup of the running server and
 * the tab shows it as the newest good one (its size and age) and in the attempts; screenshots at
 * 1440×900 and tablet width, and an axe scan.
 */
import AxeBuilder from '@axe-core/playwright';
import path from 'node:path';
import { expect, test } from './support/fixtures.ts';
import { signIn } from './support/admin.ts';

const ARTIFACTS = path.resolve(import.meta.dirname, '../artifacts');

test('an admin backs up the running server from the Backups tab and sees it', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page, '/admin/backups');
  await expect(page.getByRole('heading', { name: 'Backups' })).toBeVisible();
  await expect(page.getByText(/Taken every night \(0 3 \* \* \*\)/)).toBeVisible();
  await page.getByRole('button', { name: 'Back up now' }).click();
  await expect(page.getByText(/^Backup written: nature-wall-.*\.backup\.gz/)).toBeVisible();
  await expect(page.getByText(/^Last backup /)).toBeVisible();
  const row = page.getByRole('row').filter({ hasText: 'Console' }).first();
  await expect(row).toContainText('Good');
  await expect(row).toContainText(/KB|MB/);
  await expect(row).toContainText(/nature-wall-\d{4}-\d{2}-\d{2}T/);
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  expect(results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);
  await page.screenshot({ path: path.join(ARTIFACTS, 'admin-backups-1440.png') });
  await page.setViewportSize({ width: 768, height: 1024 });
  await page.screenshot({ path: path.join(ARTIFACTS, 'admin-backups-768.png'), fullPage: true });
});
