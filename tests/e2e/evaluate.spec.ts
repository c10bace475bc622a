/**
 * /admin/evaluate end to end: an anonymous rater rates three streams with the keyboard, skips
 * one, opens the stats panel with S; a second rater's page sees the day's count move without
 * waiting for the 30 s poll; axe finds no serious or critical violation. Screenshots at
 * 1440×900 and 768 px.
 */
import AxeBuilder from '@axe-core/playwright';
import path from 'node:path';
import { expect, test } from './support/fixtures.ts';

const ARTIFACTS = path.resolve(import.meta.dirname, '../artifacts');

test('a rater rates three streams with the keyboard, skips one and opens the stats; another page sees the count move', async ({ browser }) => {
  const raterContext = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await raterContext.newPage();
  const watcherContext = await browser.newContext();
  const watcher = await watcherContext.newPage();
  await watcher.goto('/admin/evaluate');
  await page.goto('/admin/evaluate');
  await expect(page.getByRole('heading', { name: 'Quality Evaluation' })).toBeVisible();
  const rateGroup = page.getByRole('group', { name: 'Rate this stream' });
  await expect(rateGroup).toBeVisible();
  await expect(page.getByText('Watch each stream for 10–30 seconds')).toBeVisible();
  for (const label of ['Poor', 'Fair', 'Good', 'Great', 'Excel']) await expect(rateGroup.getByRole('button', { name: new RegExp(label) })).toBeVisible();
  const axe = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
  expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);
  await page.screenshot({ path: path.join(ARTIFACTS, 'evaluate-1440.png') });

  const doneToday = watcher.getByTestId('done-today');
  await expect(doneToday).not.toHaveText('—');
  const before = Number(await doneToday.textContent());
  const title = page.locator('.evaluate__meta h2');
  for (const key of ['4', '5', '2']) {
    const current = await title.textContent();
    await page.keyboard.press(key);
    await expect(title).not.toHaveText(current ?? '', { timeout: 15_000 });
  }
  const skipped = await title.textContent();
  await page.keyboard.press('Space');
  await expect(title).not.toHaveText(skipped ?? '', { timeout: 15_000 });

  // The other page hears it at once (pushed), long before its 30 s poll.
  await expect(doneToday).toHaveText(String(before + 3), { timeout: 10_000 });

  await page.keyboard.press('s');
  const stats = page.getByRole('region', { name: 'Your stats' });
  await expect(stats).toBeVisible();
  await expect(stats.getByText('Evaluations').locator('..')).toContainText('3');
  await expect(stats.getByText('Skip rate').locator('..')).toContainText('25%');
  await page.screenshot({ path: path.join(ARTIFACTS, 'evaluate-stats-1440.png') });
  await page.setViewportSize({ width: 768, height: 1024 });
  await page.screenshot({ path: path.join(ARTIFACTS, 'evaluate-768.png'), fullPage: true });
  await raterContext.close();
  await watcherContext.close();
});
