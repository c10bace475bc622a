/**
 * A general TV playlist end to end: an admin runs it; the two nature cams join the pool (one
 * inactive, saying it needs a user-agent), the sixty TV channels wait in review, the rtmp
 * entries and repeats are counted as skipped on the source card and the job; the Streams tab
 * shows the analysis queue next to Re-Analyze All; the review queue, filtered by that source,
 * is rejected at once. Screenshots at 1440×900 and 768 px.
 */
import path from 'node:path';
import { expect, test } from './support/fixtures.ts';
import { signIn } from './support/admin.ts';

const ARTIFACTS = path.resolve(import.meta.dirname, '../artifacts');

test('a general TV list: nature cams to the pool, the rest to review and rejected at once, every skip counted', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page, '/admin/discovery');
  await page.getByRole('button', { name: 'Add source' }).click();
  const form = page.getByRole('form', { name: 'New source' });
  await form.getByLabel('Name').fill('World TV');
  await form.getByLabel('Platform').selectOption('direct');
  await form.getByLabel('Playlist URL (M3U/M3U8)').fill(`${process.env.NW_MEDIA_URL}/lists/world-tv.m3u`);
  await expect(form.getByLabel('Finds that do not look like nature cams')).toHaveValue('review');
  await expect(form.getByLabel(/Send playlists of more than 300 entries to review/)).toBeChecked();
  await form.getByRole('button', { name: 'Add source' }).click();

  const card = page.locator('[data-source-id]', { hasText: 'World TV' });
  await card.getByRole('button', { name: 'Run World TV' }).click();
  await expect(card).toHaveAttribute('data-state', 'idle', { timeout: 20_000 });
  await expect(card).toContainText('2 added of 67 found');
  await expect(card).toContainText('Last run: To review: 60 • Inactive (need headers): 1 • Skipped: 3 not HTTP (rtmp, rtsp…), 2 duplicates');
  await page.getByRole('button', { name: /View recent jobs/ }).click();
  const job = page.getByRole('list', { name: 'Recent jobs' }).getByRole('listitem').first();
  await expect(job).toContainText('Found: 67 • Added: 2');
  await expect(job).toContainText('To review: 60');
  await page.screenshot({ path: path.join(ARTIFACTS, 'admin-discovery-tally-1440.png') });

  // The pool: the puffin cam is there, inactive, and says why; the queue sits beside Re-Analyze All.
  await page.getByRole('link', { name: /^Streams/ }).click();
  const queue = page.getByRole('status', { name: 'Analysis queue' });
  await expect(queue).toBeVisible();
  await expect(queue).toContainText(/Idle|running/);
  const puffin = page.locator('tr', { hasText: 'Puffin Burrow Cam' });
  await expect(puffin).toContainText('Inactive');
  await expect(puffin).toContainText('Needs a user-agent header; cannot play in a browser');
  await expect(page.locator('tr', { hasText: 'Harbour Seal Cam' })).toContainText('Live');
  await expect(page.locator('tr', { hasText: 'CNN International' })).toHaveCount(0);
  await puffin.getByRole('button', { name: 'Edit Puffin Burrow Cam' }).click();
  await expect(page.getByRole('dialog', { name: 'Edit Stream' }).getByRole('note')).toContainText('User-Agent: PuffinPlayer/2.0');
  await page.screenshot({ path: path.join(ARTIFACTS, 'admin-streams-intake-1440.png') });
  await page.getByRole('dialog', { name: 'Edit Stream' }).getByRole('button', { name: 'Close' }).click();
  await page.locator('#streams-title').scrollIntoViewIfNeeded();
  await page.screenshot({ path: path.join(ARTIFACTS, 'admin-streams-queue-1440.png') });

  // The review queue, filtered to this source, rejected at once.
  await page.getByRole('link', { name: /^Submissions/ }).click();
  await page.getByLabel('Submitted by').selectOption('discovery: World TV');
  await expect(page.getByText('60', { exact: true }).first()).toBeVisible();
  await expect(page.locator('tr[data-submission-id]')).toHaveCount(50);
  await page.getByRole('button', { name: 'Show more (10 left)' }).click();
  await expect(page.locator('tr[data-submission-id]')).toHaveCount(60);
  await page.screenshot({ path: path.join(ARTIFACTS, 'admin-submissions-filtered-1440.png') });
  await page.getByRole('button', { name: 'Reject all 60 shown' }).click();
  const dialog = page.getByRole('dialog', { name: 'Reject submissions' });
  await expect(dialog).toContainText('Reject all 60 waiting submissions from discovery: World TV?');
  await dialog.getByLabel('Note (optional)').fill('A general TV list');
  await page.screenshot({ path: path.join(ARTIFACTS, 'admin-submissions-bulk-1440.png') });
  await dialog.getByRole('button', { name: 'Reject 60' }).click();
  await expect(page.getByText('Rejected 60 submissions')).toBeVisible();
  await expect(page.getByText('Nothing matches this filter.')).toBeVisible();

  await page.setViewportSize({ width: 768, height: 1024 });
  await page.getByLabel('Show').selectOption('rejected');
  await expect(page.locator('tr[data-submission-id]').first()).toContainText('A general TV list');
  await page.screenshot({ path: path.join(ARTIFACTS, 'admin-submissions-768.png') });
  await page.getByRole('link', { name: /^Streams/ }).click();
  await page.locator('#streams-title').scrollIntoViewIfNeeded();
  await page.screenshot({ path: path.join(ARTIFACTS, 'admin-streams-queue-768.png') });
});
