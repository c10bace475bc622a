/**
 * Stream Discovery end to end: an admin adds an M3U source served on 127.0.0.1, runs it and
 * watches its card go running → idle with 'Found: 2 • Added: 2' and the new streams appear in
 * the pool, all without reloading; a second console sees the same run live. Screenshots of the
 * panel and the source form at 1440×900 and 768 px, with an axe scan.
 */
import AxeBuilder from '@axe-core/playwright';
import path from 'node:path';
import { expect, test } from './support/fixtures.ts';
import { signIn } from './support/admin.ts';

const ARTIFACTS = path.resolve(import.meta.dirname, '../artifacts');

test('an admin runs an M3U source and watches it find and add two streams, live', async ({ page, browser }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page, '/admin/discovery');
  await expect(page.getByRole('heading', { name: 'Stream Discovery' })).toBeVisible();

  // A second admin console, to see the same run arrive by push.
  const otherContext = await browser.newContext();
  const other = await otherContext.newPage();
  await signIn(other, '/admin/discovery');

  await page.getByRole('button', { name: 'Add source' }).click();
  const form = page.getByRole('form', { name: 'New source' });
  await form.getByLabel('Name').fill('Local nature playlist');
  await form.getByLabel('Platform').selectOption('direct');
  await form.getByLabel('Playlist URL (M3U/M3U8)').fill(`${process.env.NW_MEDIA_URL}/lists/nature-cams.m3u`);
  await page.screenshot({ path: path.join(ARTIFACTS, 'admin-discovery-form-1440.png') });
  const axe = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
  expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);
  await form.getByRole('button', { name: 'Add source' }).click();

  const card = page.locator('[data-source-id]', { hasText: 'Local nature playlist' });
  await expect(card).toContainText('Never run');
  await expect(card.getByText('M3U playlist')).toBeVisible();
  const otherCard = other.locator('[data-source-id]', { hasText: 'Local nature playlist' });
  await expect(otherCard).toBeVisible(); // the source list is pushed too

  await card.getByRole('button', { name: 'Run Local nature playlist' }).click();
  await expect(card).toHaveAttribute('data-state', 'running');
  await expect(otherCard).toHaveAttribute('data-state', 'running');
  await page.screenshot({ path: path.join(ARTIFACTS, 'admin-discovery-running-1440.png') });
  await expect(card).toHaveAttribute('data-state', 'idle', { timeout: 20_000 });
  await expect(card).toContainText('Just run');
  await expect(card).toContainText('2 added of 2 found');
  await expect(otherCard).toHaveAttribute('data-state', 'idle');

  await page.getByRole('button', { name: /View recent jobs \(\d+\)/ }).click();
  const job = page.getByRole('list', { name: 'Recent jobs' }).getByRole('listitem').first();
  await expect(job).toContainText('Local nature playlist');
  await expect(job).toContainText('Found: 2 • Added: 2');
  await expect(job.getByRole('img', { name: 'Completed' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Hide recent jobs' })).toBeVisible();
  await page.screenshot({ path: path.join(ARTIFACTS, 'admin-discovery-1440.png') });

  // The finds are in the pool, named from the playlist.
  await page.getByRole('link', { name: /^Streams/ }).click();
  await expect(page.getByText('Meadow Deer Cam')).toBeVisible();
  await expect(page.getByText('Dusk Lake Cam')).toBeVisible();

  // A failing source shows its error in red on its card.
  await page.getByRole('link', { name: /^Discovery/ }).click();
  await page.getByRole('button', { name: 'Add source' }).click();
  const second = page.getByRole('form', { name: 'New source' });
  await second.getByLabel('Name').fill('Missing playlist');
  await second.getByLabel('Platform').selectOption('direct');
  await second.getByLabel('Playlist URL (M3U/M3U8)').fill(`${process.env.NW_MEDIA_URL}/lists/missing.m3u`);
  await second.getByRole('button', { name: 'Add source' }).click();
  const failing = page.locator('[data-source-id]', { hasText: 'Missing playlist' });
  await failing.getByRole('button', { name: 'Run Missing playlist' }).click();
  await expect(failing).toHaveAttribute('data-state', 'failed', { timeout: 20_000 });
  await expect(failing.getByRole('alert')).toHaveText('The playlist could not be downloaded (HTTP 404)');

  await page.setViewportSize({ width: 768, height: 1024 });
  await page.screenshot({ path: path.join(ARTIFACTS, 'admin-discovery-768.png'), fullPage: true });
  await otherContext.close();
});
