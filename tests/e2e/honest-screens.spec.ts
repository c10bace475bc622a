/**
 * Screens are honest about their streams: a camera the server holds offline, still on a scene
 * because nothing could replace it, says OFFLINE (and since when) on its card — never LIVE.
 */
import path from 'node:path';
import { expect, SHOWN_SIDE, shownCard, test, world } from './support/fixtures.ts';

const ARTIFACTS = path.resolve(import.meta.dirname, '../artifacts');
const { scenes, streams } = world;

test('a dead camera with nothing to replace it says OFFLINE, not LIVE', async ({ page, api }) => {
  // Two failed checks in a row make a stream offline (src/shared/quality/health.ts).
  for (let i = 0; i < 2; i++) await api.request('POST', '/quality?action=analyze', { streamId: streams.offline.id, force: true, wait: true });
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`/scenes/${scenes.offline.slug}`);
  const card = shownCard(page, streams.offline.name);
  await expect(card.locator(`.badge--offline${SHOWN_SIDE}`)).toContainText(/OFFLINE · (just now|for \d+ min)/);
  await expect(card.locator(`.badge--live${SHOWN_SIDE}`)).toHaveCount(0);
  await page.screenshot({ path: path.join(ARTIFACTS, 'viewer-offline-badge-1440.png') });
});
