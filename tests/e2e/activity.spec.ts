/**
 * What is happening now, in the console: the world's cameras are analysed for real, and so is a
 * camera that replays the first 4 s of a clip as live (a looped recording by its second analysis),
 * the stream table shows each one's activity sparkline and the looped fault with both
 * times and the "recording is fine" switch, a stream's history shows its day as a 24-hour strip,
 * and a ranked scene's card — and the Screens tab, for a wall showing it — say why each tile shows
 * its camera. Screenshots at 1440 × 900 and 768 px.
 */
import path from 'node:path';
import { expect, test, world } from './support/fixtures.ts';
import { atEachSize, signIn } from './support/admin.ts';

const ARTIFACTS = path.resolve(import.meta.dirname, '../artifacts');

test('activity, looped recordings, daily strips and ranked picks in the console', async ({ page, api, browser }) => {
  test.setTimeout(180_000);
  const analyze = (streamId: number) => api.request('POST', '/quality?action=analyze', { streamId, force: true, wait: true });
  for (const stream of [world.streams.kelp, world.streams.savanna, world.streams.falls]) await analyze(stream.id);
  const pond = await api.createStream({ name: 'Mill Pond Cam', url: `${process.env.NW_MEDIA_URL}/live/short.m3u8`, category: 'nature', location_name: 'Kent, England', latitude: 51.2, longitude: 0.9, timezone: 'Europe/London' });
  // The live window moves on between analyses, so each sample comes from new segments; the second
  // usually finds the replay, a loaded machine may need a third.
  for (let i = 0; i < 3; i++) {
    await analyze(pond.id);
    const found = (await api.request<{ looped: unknown }>('GET', `/streams/${pond.id}`)).looped;
    if (found) break;
    await new Promise((r) => setTimeout(r, 5_000));
  }
  const ranked = await api.createScene({ name: 'Best Right Now', description: 'The best cameras now', layout_type: 'grid', selection_algorithm: 'ranked', max_streams: 3, stream_ids: [] });

  await signIn(page, '/admin/streams');
  await atEachSize(page, '/admin/streams', async (width) => {
    const looped = page.locator(`tr[data-stream-id="${pond.id}"]`);
    await expect(looped.getByText('Looped recording')).toBeVisible({ timeout: 20_000 });
    await expect(looped.getByRole('button', { name: 'Recording is fine' })).toBeVisible();
    await expect(page.locator(`tr[data-stream-id="${world.streams.kelp.id}"] .activity svg`)).toBeVisible();
    await looped.scrollIntoViewIfNeeded();
    await page.screenshot({ path: path.join(ARTIFACTS, `admin-streams-activity-${width}.png`) });

    await looped.getByRole('button', { name: /Quality history of/ }).click();
    const strip = page.getByRole('region', { name: 'Its day by hour' });
    await expect(strip.locator('.daily__hour:not(.daily__hour--empty)').first()).toBeVisible();
    await page.screenshot({ path: path.join(ARTIFACTS, `admin-stream-daily-${width}.png`) });
    await page.keyboard.press('Escape');

    await page.goto('/admin/scenes');
    const card = page.locator(`[data-scene-id="${ranked.id}"]`);
    await expect(card.getByRole('list', { name: /Why Best Right Now shows these cameras/ }).getByRole('listitem').first()).toContainText(/activity|quality|daylight|night/, { timeout: 30_000 });
    await card.scrollIntoViewIfNeeded();
    await page.screenshot({ path: path.join(ARTIFACTS, `admin-scenes-ranked-${width}.png`), fullPage: width !== 1440 });
  });

  // A wall on the ranked scene: the Screens tab says why it shows what it shows.
  const wall = await browser.newPage();
  await wall.goto(`/scenes/${ranked.slug ?? ranked.id}`);
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto('/admin/screens');
  await expect(page.getByRole('list', { name: /Why Best Right Now shows these cameras/ }).first()).toBeVisible({ timeout: 20_000 });
  await page.screenshot({ path: path.join(ARTIFACTS, 'admin-screens-ranked-1440.png') });
  await wall.close();

  // The mark takes the looped camera back onto pool walls, and its health with it.
  await page.goto('/admin/streams');
  await page.locator(`tr[data-stream-id="${pond.id}"]`).getByRole('button', { name: 'Recording is fine' }).click();
  await expect(page.locator(`tr[data-stream-id="${pond.id}"]`).getByText('Recording (marked fine)')).toBeVisible();
});
