/**
 * /admin/evaluate end to end: an anonymous rater rates three streams with the keyboard, skips
 * one, opens the stats panel with S; a second rater's page sees the day's count move without
 * waiting for the 30 s poll; axe finds no serious or critical violation. Screenshots at
 * 1440×900 and 768 px.
 */
import AxeBuilder from '@axe-core/playwright';
import path from 'node:path';
import { expect, test } from './support/fixtures.ts';
import { signIn } from './support/admin.ts';

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

test('a rater compares two streams side by side with ← / → / =, and the Ratings tab says who weighs what and what waits', async ({ browser, page: admin }) => {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  await page.goto('/admin/evaluate');
  await page.getByRole('group', { name: 'How to answer' }).getByRole('button', { name: 'Compare two' }).click();
  await expect(page).toHaveURL(/mode=compare/);
  await expect(page.getByRole('heading', { name: 'Which looks better?' })).toBeVisible({ timeout: 15_000 });
  const sides = page.locator('.compare__side');
  await expect(sides).toHaveCount(2);
  await expect(page.getByText('say which picture looks better')).toBeVisible();
  const axe = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
  expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);
  await page.screenshot({ path: path.join(ARTIFACTS, 'evaluate-compare-1440.png') });
  const shown = async () => (await sides.allTextContents()).join(' | ');
  const first = await shown();
  await page.keyboard.press('ArrowLeft');
  // The answer is taken and the next pair (or the end of the pairs) follows.
  await expect.poll(async () => (await page.getByText('No pairs to compare right now').isVisible()) || (await shown()) !== first, { timeout: 15_000 }).toBe(true);
  await page.setViewportSize({ width: 768, height: 1024 });
  await page.screenshot({ path: path.join(ARTIFACTS, 'evaluate-compare-768.png'), fullPage: true });
  // Back to rating one: the spec's keys are unchanged.
  await page.getByRole('button', { name: 'Rate one' }).click();
  await expect(page.getByRole('group', { name: 'Rate this stream' })).toBeVisible({ timeout: 15_000 });
  await context.close();

  await signIn(admin, '/admin/ratings');
  await expect(admin.getByRole('heading', { name: 'Waiting for judgements' })).toBeVisible();
  const reliability = admin.getByRole('region', { name: 'Rater reliability' });
  await expect(reliability.getByText(/% agreement/).first()).toBeVisible({ timeout: 15_000 });
  await expect(admin.getByRole('region', { name: 'Waiting for judgements' }).getByRole('listitem').first()).toBeVisible();
  for (const [width, height] of [
    [1440, 900],
    [768, 1024],
  ] as const) {
    await admin.setViewportSize({ width, height });
    await admin.screenshot({ path: path.join(ARTIFACTS, `admin-ratings-${width}.png`), fullPage: true });
  }
});
