/**
 * Quality in the console, end to end with real ffmpeg on local media: a row's re-analyze spins
 * and lands a grade and a still (its thumbnail), the Health column, the score history chart, and 'Re-Analyze All' with its
 * live progress and the dead camera listed as a failure; a still scene at a low rate noted "still or
 * frozen — can't tell" and "live or looped — can't tell" in its history, not called frozen. Screenshots at 1440×900 and 768 px.
 */
import AxeBuilder from '@axe-core/playwright';
import path from 'node:path';
import { expect, test, world } from './support/fixtures.ts';
import { atEachSize, signIn } from './support/admin.ts';
import { serveCorpus } from '../support/quality-corpus.ts';

const ARTIFACTS = path.resolve(import.meta.dirname, '../artifacts');

test('an admin re-analyzes a stream, reads its history, and analyzes every stream with live progress', async ({ page }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page, '/admin/streams');
  const lava = world.streams.lava.name;
  const row = page.locator('tr', { hasText: lava });

  await row.getByRole('button', { name: `Re-analyze ${lava}` }).click();
  await expect(row.getByRole('button', { name: `Analyzing ${lava}` })).toBeVisible();
  await expect(row.getByRole('button', { name: `Re-analyze ${lava}` })).toBeVisible({ timeout: 30_000 });
  await expect(row.locator('.grade__badge')).not.toHaveText('?');
  await expect(row.getByText(/^(Healthy|Degraded)$/)).toBeVisible();
  // The analysis left a still: the row shows it from our origin (never the platform's), lazily, at 320 px.
  const still = row.getByRole('img', { name: `${lava} thumbnail` });
  await expect(still).toHaveAttribute('src', /^\/api\/streams\/\d+\/still\?v=\d+$/);
  await expect(still).toHaveAttribute('loading', 'lazy');
  await expect.poll(() => still.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(320);

  await row.getByRole('button', { name: `Quality history of ${lava}` }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByRole('img', { name: 'Quality score over time' }).locator('canvas')).toBeVisible();
  await expect(dialog.locator('tbody tr').first()).toContainText('sample');
  await expect(dialog.locator('tbody tr').first()).toContainText('manual');
  await page.screenshot({ path: path.join(ARTIFACTS, 'admin-quality-history-1440.png') });
  await page.keyboard.press('Escape');

  await page.getByRole('button', { name: 'Re-Analyze All' }).click();
  const progress = page.getByRole('status').filter({ hasText: 'all streams' });
  await expect(progress).toContainText('Analyzing all streams');
  await page.screenshot({ path: path.join(ARTIFACTS, 'admin-quality-progress-1440.png') });
  await expect(progress).toContainText(/finished: \d+ of \d+/, { timeout: 90_000 });
  await expect(page.getByRole('list', { name: 'Failed analyses' })).toContainText(world.streams.offline.name);
  await expect(page.getByRole('button', { name: 'Re-Analyze All' })).toBeEnabled();
  const axe = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
  expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);
  await page.screenshot({ path: path.join(ARTIFACTS, 'admin-quality-1440.png') });
  await page.setViewportSize({ width: 768, height: 1024 });
  await page.screenshot({ path: path.join(ARTIFACTS, 'admin-quality-768.png'), fullPage: true });
});

test("a still scene whose noise the encoder erased is noted 'can't tell' (still or frozen, live or looped) in its history, not called frozen", async ({ page, api }) => {
  test.setTimeout(120_000);
  const corpus = await serveCorpus();
  try {
    const quiet = await api.createStream({ name: 'Quiet Meadow Cam', url: corpus.live('quiet_still_crf'), category: 'nature' });
    await api.request('POST', '/quality?action=analyze', { streamId: quiet.id, force: true, wait: true });
    await signIn(page, '/admin/streams');
    await atEachSize(page, '/admin/streams', async (width) => {
      const row = page.locator(`tr[data-stream-id="${quiet.id}"]`);
      await expect(row.getByText('Healthy')).toBeVisible();
      await row.getByRole('button', { name: 'Quality history of Quiet Meadow Cam' }).click();
      const latest = page.getByRole('dialog').locator('tbody tr').first();
      await expect(latest).toContainText("still or frozen — can't tell");
      await expect(latest).toContainText("live or looped — can't tell");
      await expect(latest).not.toContainText('frozen,');
      // One analysis: its chart spans the hours around it, not years (uPlot's lone-point default).
      const ticks = await page.getByRole('dialog').locator('.u-axis').first().innerText();
      expect(ticks).not.toMatch(/20(2[7-9]|3\d)/);
      await page.screenshot({ path: path.join(ARTIFACTS, `admin-quality-cant-tell-${width}.png`) });
      await page.keyboard.press('Escape');
    });
    await api.request('DELETE', '/streams', { id: quiet.id });
  } finally {
    await corpus.close();
  }
});
