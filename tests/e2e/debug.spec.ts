/** /debug: a local HLS stream is read (type, format, valid, load time), plays, and is saved to the pool. */
import path from 'node:path';
import { expect, test, videoTime } from './support/fixtures.ts';
import { signIn } from './support/admin.ts';

test('the debug view loads an HLS stream, shows how it is read, plays it and saves it', async ({ page }) => {
  await signIn(page, '/debug');
  await expect(page).toHaveURL(/\/debug$/);
  await expect(page.getByRole('heading', { name: 'Stream Debug View' })).toBeVisible();
  for (const preset of ['YouTube embed', 'Sample MP4', 'Sample HLS']) await expect(page.getByRole('button', { name: preset })).toBeVisible();

  const hls = `${process.env.NW_MEDIA_URL}/live/index.m3u8?debug=1`;
  await page.getByLabel('Stream URL').fill(hls);
  await page.getByRole('button', { name: 'Load Stream' }).click();
  const status = page.getByRole('status').filter({ hasText: 'Type:' });
  await expect(status).toContainText('Type: direct · Format: hls · Valid: yes');
  await expect(status).toContainText(/Load time: \d+ ms/);
  await expect.poll(() => videoTime(page)).toBeGreaterThan(0.2);
  await expect(page.getByText(/Ready in \d+ ms/)).toBeVisible();
  await page.screenshot({ path: path.resolve(import.meta.dirname, '../artifacts/debug-1440.png') });

  await page.getByLabel('Stream name').fill('');
  await page.getByRole('button', { name: 'Save to Database' }).click();
  await expect(page.getByRole('alert')).toHaveText('Please provide a stream name');
  await page.getByLabel('Stream name').fill('Debug HLS cam');
  await page.getByRole('button', { name: 'Save to Database' }).click();
  await expect(page.getByText(/Saved as stream #\d+/)).toBeVisible();
  await page.getByRole('button', { name: 'Save to Database' }).click();
  await expect(page.getByRole('alert')).toHaveText('Failed to save stream: Duplicate stream detected');
  await page.getByRole('button', { name: 'Clear Logs' }).click();
  await expect(page.getByText('Nothing logged yet.')).toBeVisible();
});
