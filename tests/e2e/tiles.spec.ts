/**
 * Tiles that keep playing (issue 39), against the quality corpus's live cameras on 127.0.0.1: a
 * small tile decodes the rendition its box needs, not the camera's top one; a camera whose clock
 * is an hour off plays on every wall (its live edge) and is flagged with its skew in the console;
 * a tile whose picture stops while something keeps seeking it is reported stalled and rebuilt.
 */
import type { Browser, Page } from '@playwright/test';
import path from 'node:path';
import { serveCorpus, type CorpusServer } from '../support/quality-corpus.ts';
import { signIn } from './support/admin.ts';
import { expect, test, world } from './support/fixtures.ts';

const ARTIFACTS = path.resolve(import.meta.dirname, '../artifacts');
let corpus: CorpusServer;

test.beforeAll(async () => {
  test.setTimeout(240_000); // the corpus is rendered once per machine
  corpus = await serveCorpus();
});
test.afterAll(async () => {
  await corpus?.close();
});

/** A manual scene of `first` and four of the world's clips, made the default. */
async function defaultSceneWith(api: Parameters<Parameters<typeof test>[2]>[0]['api'], name: string, url: string) {
  const stream = await api.createStream({ name, url, category: 'nature' });
  const s = world.streams;
  const scene = await api.createScene({ name: `${name} wall`, layout_type: 'grid', selection_algorithm: 'manual', max_streams: 5, stream_ids: [stream.id, s.kelp.id, s.savanna.id, s.lava.id, s.falls.id] });
  await api.setDefaultScene(scene.id);
  return stream;
}

async function screenPage(browser: Browser, baseURL: string, at: string): Promise<Page> {
  const context = await browser.newContext({ baseURL, viewport: { width: 1280, height: 720 } });
  const page = await context.newPage();
  await page.goto(at);
  return page;
}

/** Seconds the video moved on over two seconds (the picture, not an event). */
const advance = (video: ReturnType<Page['locator']>) =>
  video.evaluate(async (v: HTMLVideoElement) => {
    const t = v.currentTime;
    await new Promise((r) => setTimeout(r, 2000));
    return v.currentTime - t;
  });

test('a tile in a small box plays a lower rendition than a full-screen kiosk of the same camera', async ({ browser, baseURL, api }) => {
  test.setTimeout(120_000);
  const camera = await defaultSceneWith(api, 'Ladder Camera', corpus.timedLadder({ tag: 'rendition' }));
  const wall = await screenPage(browser, baseURL!, '/app');
  const kiosk = await screenPage(browser, baseURL!, '/streams/1');
  try {
    const height = (page: Page, selector: string) => page.locator(selector).evaluate((v: HTMLVideoElement) => v.videoHeight);
    const tile = `.wall-tile:not(.wall-tile--incoming) [data-stream-id="${camera.id}"] video`;
    // The kiosk's box is the screen (1280 px wide): the 720p rendition, once hls.js has measured the link.
    await expect.poll(() => height(kiosk, `[data-stream-id="${camera.id}"] video`), { timeout: 60_000 }).toBe(720);
    // The wall's tile is a third of that: 360p, however fast the link (without the cap, the 1080p).
    await expect.poll(() => height(wall, tile), { timeout: 30_000 }).toBe(360);
    await wall.waitForTimeout(4_000);
    expect(await height(wall, tile)).toBe(360);
    expect(await advance(wall.locator(tile))).toBeGreaterThan(1);
  } finally {
    await wall.context().close();
    await kiosk.context().close();
  }
});

test("a camera whose clock is an hour fast plays on every wall, at its live edge, and the console shows its skew", async ({ browser, baseURL, api }) => {
  test.setTimeout(180_000);
  // A 3-segment window of 2 s: the shared moment (server time − 5 s) is an hour before anything it serves.
  const camera = await defaultSceneWith(api, 'Hour Fast Camera', corpus.withProgramTime('clean360', { shiftMs: 3_600_000, window: 3, tag: 'hour' }));
  await api.request('POST', '/quality?action=analyze', { streamId: camera.id, force: true, wait: true });
  const pages = [await screenPage(browser, baseURL!, '/app'), await screenPage(browser, baseURL!, '/app'), await screenPage(browser, baseURL!, '/streams/1')];
  try {
    for (const page of pages) {
      const video = page.locator(`.player[data-stream-id="${camera.id}"] video`).first();
      await expect(video).toHaveCount(1, { timeout: 30_000 });
      await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.readyState), { timeout: 30_000 }).toBeGreaterThanOrEqual(3);
      // Once the screen knows the server's clock it steers; the camera cannot be followed, so it is not steered off its window.
      await expect.poll(() => video.getAttribute('data-camera-skew'), { timeout: 30_000 }).toMatch(/^3\d{6}$/);
      expect(await advance(video)).toBeGreaterThan(1);
    }
    const admin = await screenPage(browser, baseURL!, '/');
    try {
      await signIn(admin, '/admin/streams');
      const row = admin.locator('tr', { hasText: 'Hour Fast Camera' });
      const badge = row.locator('.camera-clock .badge');
      await expect(badge).toHaveText('Camera clock 1 h 0 min fast');
      await expect(badge).toHaveAttribute('title', /screens play its live edge/);
      for (const width of [1440, 768]) {
        await admin.setViewportSize({ width, height: width >= 1024 ? 900 : 1024 });
        await badge.scrollIntoViewIfNeeded(); // at tablet width the table scrolls sideways to its Health column
        await admin.screenshot({ path: path.join(ARTIFACTS, `admin-camera-clock-${width}.png`) });
      }
    } finally {
      await admin.context().close();
    }
  } finally {
    for (const page of pages) await page.context().close();
  }
});

test('a tile whose picture stops while something keeps seeking it is reported stalled and rebuilt', async ({ browser, baseURL, api }) => {
  test.setTimeout(120_000);
  const camera = await defaultSceneWith(api, 'Stopping Camera', corpus.withProgramTime('clean360', { tag: 'stops' }));
  const context = await browser.newContext({ baseURL, viewport: { width: 1280, height: 720 } });
  // The camera's segments stop coming after the first two this page asks for: they never answer.
  let served = 0;
  await context.route(/\/clean360\/seg\d+\.ts/, (route) => (served++ < 2 ? route.continue() : undefined));
  const wall = await context.newPage();
  try {
    await wall.goto('/app');
    const video = wall.locator(`.wall-tile:not(.wall-tile--incoming) .player[data-stream-id="${camera.id}"] video`);
    await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.readyState), { timeout: 30_000 }).toBeGreaterThanOrEqual(2);
    // What the old sync and hls.js did to a tile whose camera's clock was off: seek it back and
    // forth, for ever — within what it has, so every seek completes, fires 'timeupdate' and moves
    // the playhead, while the picture plays nothing new.
    await video.evaluate((v: HTMLVideoElement) => {
      Object.assign(v, { __first: true });
      let forward = true;
      setInterval(() => {
        if (!v.isConnected || v.buffered.length === 0) return;
        v.currentTime = v.buffered.start(0) + (forward ? 0.9 : 0.3);
        forward = !forward;
      }, 300);
    });
    // Reported: the hub hears the tile is stalled (the Screens tab shows it).
    const health = async () => {
      const screens = await api.request<{ kind: string; health: Record<string, string> }[]>('GET', '/screens');
      return screens.filter((s) => s.kind === 'wall').map((s) => s.health[String(camera.id)]);
    };
    await expect.poll(health, { timeout: 30_000 }).toContain('stalled');
    // Rebuilt: a new video element, asking for the playlist again.
    await expect.poll(() => video.evaluate((v) => (v as unknown as { __first?: boolean }).__first === true).catch(() => false), { timeout: 30_000 }).toBe(false);
    await expect(video).toHaveCount(1);
  } finally {
    await context.close();
  }
});
