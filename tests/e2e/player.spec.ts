/** The player on local media: HLS (hls.js, fetched only when needed) and MP4 really play; a dead camera fails honestly and retries. */
import type { Page } from '@playwright/test';
import type { ScreenPresence } from '../../src/shared/events.ts';
import { expect, test, videoTime, world } from './support/fixtures.ts';

const { scenes, streams } = world;

async function expectPlaying(page: Page) {
  await expect.poll(() => videoTime(page), { timeout: 15_000 }).toBeGreaterThan(0.3);
  const before = await videoTime(page);
  // Played on, modulo the loop: a looping file may wrap to its start (it plays at server time mod duration).
  const playedSince = () =>
    page.locator('video').first().evaluate((video: HTMLVideoElement, from: number) => {
      const played = video.currentTime - from;
      return Number.isFinite(video.duration) && video.duration > 0 ? ((played % video.duration) + video.duration) % video.duration : played;
    }, before);
  await expect.poll(playedSince, { timeout: 5_000 }).toBeGreaterThan(0.4);
}

test('an HLS stream plays through hls.js, loaded only for it', async ({ page }) => {
  const scripts: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
  });
  await page.goto(`/scenes/${scenes.morning.slug}/1`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(streams.forest.name);
  await expectPlaying(page);
  expect(await page.locator('video').evaluate((v: HTMLVideoElement) => v.src.startsWith('blob:'))).toBe(true); // MSE
  expect(scripts.some((s) => /hls/.test(s))).toBe(true);
  expect(await page.locator('video').evaluate((v: HTMLVideoElement) => [v.muted, v.loop, v.autoplay, v.controls])).toEqual([true, true, true, false]);
});

test("a cold kiosk's camera starts before the app, and the app's player takes that very video, playing", async ({ page }) => {
  // The first video in the page, whoever made it, and whether it was ever paused or emptied once it had a picture.
  await page.addInitScript(() => {
    const w = window as unknown as { __first?: HTMLVideoElement; __firstOutsideApp?: boolean; __interrupted?: string[] };
    w.__interrupted = [];
    new MutationObserver((_, observer) => {
      const video = document.querySelector('video');
      if (!video) return;
      observer.disconnect();
      w.__first = video;
      w.__firstOutsideApp = video.closest('#root') === null;
      for (const type of ['pause', 'emptied']) video.addEventListener(type, () => video.readyState > 0 && w.__interrupted!.push(type));
    }).observe(document, { subtree: true, childList: true });
  });
  await page.goto(`/scenes/${scenes.morning.slug}/1`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(streams.forest.name);
  await expectPlaying(page);
  const taken = await page.evaluate(() => {
    const w = window as unknown as { __first?: HTMLVideoElement; __firstOutsideApp?: boolean; __interrupted: string[] };
    const shown = document.querySelector('#root .player video');
    return { startedOutsideApp: w.__firstOutsideApp, same: shown === w.__first, videos: document.querySelectorAll('video').length, interrupted: w.__interrupted };
  });
  expect(taken).toEqual({ startedOutsideApp: true, same: true, videos: 1, interrupted: [] });
  await expect(page.locator('.player')).toHaveAttribute('data-player-state', 'ready');
  // Started before the app by web/prestart.ts (its script is in the HTML).
  expect(await page.locator('script[src*="/assets/prestart-"]').count()).toBe(1);
  // Refresh Stream restarts the player with a video of its own, and it plays.
  await page.getByRole('button', { name: 'Refresh Stream' }).click();
  await expect.poll(() => page.evaluate(() => document.querySelector('#root .player video') !== (window as unknown as { __first?: HTMLVideoElement }).__first)).toBe(true);
  await expectPlaying(page);
});

test('an MP4 stream plays in a muted looping video, and hls.js is not downloaded', async ({ page }) => {
  const scripts: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
  });
  await page.goto(`/scenes/${scenes.morning.slug}/2`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(streams.kelp.name);
  await expectPlaying(page);
  expect(scripts.some((s) => /hls/.test(s))).toBe(false);
  expect(scripts.some((s) => /Admin|LiveWall|SceneViewer/.test(s))).toBe(false);
});

test("a kiosk's HTML says ahead what it will need: its state, and hls.js and the playlist only for HLS", async ({ request }) => {
  const hlsPage = await (await request.get(`/scenes/${scenes.morning.slug}/1`)).text();
  const state = JSON.parse(/<script type="application\/json" id="nw-screen-state">(.*?)<\/script>/s.exec(hlsPage)![1]!) as { kind: string; stream: { name: string; url: string } };
  expect(state).toMatchObject({ kind: 'kiosk', stream: { name: streams.forest.name } });
  expect(hlsPage).toMatch(/<link rel="modulepreload" crossorigin href="\/assets\/KioskScreen-[\w-]+\.js">/);
  expect(hlsPage).toMatch(/<link rel="modulepreload" crossorigin href="\/assets\/hls\.light-[\w-]+\.js" data-player="hls">/);
  expect(hlsPage).toContain(`<link rel="preload" as="fetch" crossorigin href="${state.stream.url}">`);
  const filePage = await (await request.get(`/scenes/${scenes.morning.slug}/2`)).text();
  expect(filePage).toContain('nw-screen-state');
  expect(filePage).not.toContain('hls');
  expect(await (await request.get('/submit')).text()).not.toContain('modulepreload" crossorigin href="/assets/KioskScreen');
});

test('the kiosk reports playback health to the hub', async ({ page, api }) => {
  await page.goto(`/scenes/${scenes.morning.slug}/2`);
  await expectPlaying(page);
  await expect
    .poll(async () => {
      const screens = await api.request<ScreenPresence[]>('GET', '/screens');
      return screens.find((s) => s.kind === 'kiosk' && s.position === 2)?.health[String(streams.kelp.id)];
    })
    .toBe('playing');
});

test('a dead stream shows the unavailable state and Retry, and retries', async ({ page }) => {
  await page.goto(`/scenes/${scenes.offline.slug}/1`);
  await expect(page.getByRole('heading', { level: 1, name: 'Stream Unavailable' })).toBeVisible();
  await expect(page.getByText('Stream 1 could not be loaded')).toBeVisible();
  const retry = page.getByRole('button', { name: 'Retry' });
  await expect(retry).toBeVisible();
  await retry.click();
  // The player tries again and, the camera being still dead, fails again.
  await expect(page.getByRole('heading', { level: 1, name: 'Stream Unavailable' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Retry' })).toBeVisible();
});

test('the Live Wall shows a dead stream as unavailable with Try again', async ({ page, api }) => {
  await api.setDefaultScene(scenes.offline.id);
  await page.goto('/app');
  const tile = page.locator('.wall-tile').first();
  await expect(tile.getByText(`Stream unavailable: ${streams.offline.name}`)).toBeVisible();
  await expect(tile.getByText('The stream may be temporarily offline. Please try again later.')).toBeVisible();
  await expect(tile.getByRole('button', { name: 'Try again' })).toBeVisible();
  await expect
    .poll(async () => {
      const screens = await api.request<ScreenPresence[]>('GET', '/screens');
      return screens.find((s) => s.kind === 'wall' && s.name === 'Live Wall')?.health[String(streams.offline.id)];
    })
    .toBe('error');
});
