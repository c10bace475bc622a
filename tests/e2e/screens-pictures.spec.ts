/**
 * The Screens tab pictures what each wall and kiosk shows: its scene's layout tile by tile, each
 * tile the stream's still (from its analysis, served by us), the player's state as that screen
 * reports it, and the stream's health as the server holds it; an offline screen's picture is
 * dimmed with since when. Screenshots at 1440×900 and 768×1024, axe clean.
 */
import AxeBuilder from '@axe-core/playwright';
import type { Locator, Page } from '@playwright/test';
import path from 'node:path';
import { signIn } from './support/admin.ts';
import { expect, test, world } from './support/fixtures.ts';

const ARTIFACTS = path.resolve(import.meta.dirname, '../artifacts');
const { streams } = world;

async function noSeriousViolations(page: Page, label: string) {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  const blocking = results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  expect(blocking, label).toEqual([]);
}

/** A tile's still has loaded (it is lazy: brought into view first). */
async function expectStillLoaded(tile: Locator) {
  const still = tile.locator('img.thumb');
  await still.scrollIntoViewIfNeeded();
  await expect(still).toHaveAttribute('src', /^\/api\/streams\/\d+\/still\?v=\d+$/);
  await expect.poll(() => still.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth), { timeout: 15_000 }).toBeGreaterThan(0);
}

test('each wall and kiosk is pictured tile by tile, with stills, playback and health', async ({ browser, api }) => {
  test.setTimeout(150_000);
  // Stills come from analyses; two failed checks in a row make the dead camera offline.
  for (const id of [streams.lava.id, streams.reef.id]) await api.request('POST', '/quality?action=analyze', { streamId: id, force: true, wait: true });
  for (let i = 0; i < 2; i++) await api.request('POST', '/quality?action=analyze', { streamId: streams.offline.id, force: true, wait: true });

  // Names of their own: screens of earlier runs against this server stay listed as offline.
  const run = Date.now().toString(36);
  const scene = await api.createScene({
    name: `Ocean hour ${run}`,
    layout_type: 'grid',
    selection_algorithm: 'manual',
    max_streams: 5,
    stream_ids: [streams.lava.id, streams.reef.id, streams.offline.id],
  });
  const slug = scene.slug ?? String(scene.id);
  const names = { wall: `Pictured wall ${run}`, kiosk: `Pictured kiosk ${run}`, gone: `Gone kiosk ${run}` };

  const screens = await browser.newContext({ viewport: { width: 960, height: 540 } });
  const wall = await screens.newPage();
  const kiosk = await screens.newPage();
  const gone = await screens.newPage();
  await wall.goto(`/scenes/${slug}?name=${encodeURIComponent(names.wall)}`);
  await kiosk.goto(`/scenes/${slug}/2?name=${encodeURIComponent(names.kiosk)}`);
  await gone.goto(`/scenes/${slug}/1?name=${encodeURIComponent(names.gone)}`);
  await expect(wall.getByRole('heading', { level: 1 })).toHaveText(scene.name);
  await expect(kiosk.getByRole('heading', { level: 1 })).toHaveText(streams.reef.name);
  await expect(gone.getByRole('heading', { level: 1 })).toHaveText(streams.lava.name);

  const admin = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await admin.newPage();
  await signIn(page, '/admin/screens');

  // The wall: its scene's three tiles in its grid, two players playing and the dead camera failed.
  const wallPicture = page.locator('li.screen-row', { hasText: names.wall }).getByTestId('screen-picture');
  await expect(wallPicture).toHaveAttribute('aria-label', `Wall showing ${scene.name}: 3 tiles, 2 playing, 1 failed; 1 OFFLINE`, { timeout: 30_000 });
  await expect(wallPicture).toHaveAttribute('role', 'img');
  await expect(wallPicture.locator('.screen-picture__tile')).toHaveCount(3);
  for (const stream of [streams.lava, streams.reef]) {
    const tile = wallPicture.locator(`.screen-picture__tile[data-stream-id="${stream.id}"]`);
    await expectStillLoaded(tile);
    await expect(tile.locator('.screen-picture__playback')).toHaveText('playing');
    await expect(tile.locator('.badge')).toHaveText('LIVE');
  }
  const dead = wallPicture.locator(`.screen-picture__tile[data-stream-id="${streams.offline.id}"]`);
  await expect(dead.locator('.screen-picture__playback')).toHaveText('failed');
  await expect(dead.locator('.badge--offline')).toContainText('OFFLINE');
  await expect(dead.locator('.badge--live')).toHaveCount(0);
  // Laid out as the wall lays out three tiles on a grid: two above, one centred below.
  const boxes = await wallPicture.locator('.screen-picture__tile').evaluateAll((tiles) => tiles.map((t) => t.getBoundingClientRect().toJSON() as DOMRect));
  expect(boxes[0]!.y).toBe(boxes[1]!.y);
  expect(boxes[2]!.y).toBeGreaterThan(boxes[0]!.y);
  expect(boxes[2]!.x).toBeGreaterThan(boxes[0]!.x);
  expect(boxes[2]!.x).toBeLessThan(boxes[1]!.x);

  // The kiosk: the one stream at its position.
  const kioskPicture = page.locator('li.screen-row', { hasText: names.kiosk }).getByTestId('screen-picture');
  await expect(kioskPicture).toHaveAttribute('aria-label', `Kiosk showing position 2 of ${scene.name}: ${streams.reef.name}, playing`, { timeout: 30_000 });
  await expect(kioskPicture.locator('.screen-picture__tile')).toHaveCount(1);
  await expectStillLoaded(kioskPicture.locator('.screen-picture__tile'));
  await expect(kioskPicture.locator('.screen-picture__playback')).toHaveText('playing');
  await expect(kioskPicture.locator('.badge')).toHaveText('LIVE');

  // A screen that goes away: its picture is what it last showed, dimmed, with since when — no playback, no badges of now.
  await gone.close();
  const gonePicture = page.locator('li.screen-row', { hasText: names.gone }).getByTestId('screen-picture');
  await expect(gonePicture).toHaveClass(/screen-picture--offline/, { timeout: 30_000 });
  await expect(gonePicture.locator('.screen-picture__offline')).toHaveText(/^Offline since .+/);
  await expect(gonePicture).toHaveAttribute('aria-label', new RegExp(`^Kiosk, offline since .+, last showing position 1 of ${scene.name}: ${streams.lava.name}$`));
  await expect(gonePicture.locator('.screen-picture__playback, .badge')).toHaveCount(0);
  await expectStillLoaded(gonePicture.locator('.screen-picture__tile'));

  await wallPicture.scrollIntoViewIfNeeded();
  await noSeriousViolations(page, 'Screens tab with pictures at 1440');
  await page.screenshot({ path: path.join(ARTIFACTS, 'admin-screens-pictures-1440.png') });
  await page.setViewportSize({ width: 768, height: 1024 });
  await expect(wallPicture).toBeVisible();
  await noSeriousViolations(page, 'Screens tab with pictures at 768');
  await page.screenshot({ path: path.join(ARTIFACTS, 'admin-screens-pictures-768.png'), fullPage: true });

  await screens.close();
  await admin.close();
});
