/**
 * `npm run bench:wall`: what a screen feels, in a real browser against the real server.
 *
 * 1. Switch: 5 scene-viewer pages (`/`, following the default scene) in one headless Chromium,
 *    each playing its scene's five local videos; 20 default-scene changes over REST (after 3
 *    unmeasured ones). For each change and page: ms from the start of the REST call to the
 *    page's DOM showing the new scene (a MutationObserver in the page notes the moment; page
 *    and Node clocks are aligned by a round-trip calibration per page), and to the push
 *    arriving on the page's socket. Then the same with one page (one wall per screen).
 * 2. HLS first frame: ms from navigation start to the first decoded frame of a local live HLS
 *    stream on a kiosk (requestVideoFrameCallback), p50 of 10 cold loads (fresh context each)
 *    and of 10 warm ones (the same page again, the app's files cached).
 * 3. JavaScript weight: the gzip size (level 9) of every script each of `/`, `/streams/1` and
 *    `/admin` loads, with and without the hls.js chunk, and whether admin code was among it.
 *
 * Media are generated with ffmpeg and served on 127.0.0.1 (tests/e2e/support/media.ts); the
 * server runs in its own process on a throw-away database. The last line is one JSON object.
 * Options: --no-build (use dist/web as it is), --changes N, --pages N, --runs N.
 */
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { gzipSync } from 'node:zlib';
import { chromium, type Browser, type Page } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../playwright.config.ts';
import { apiClient } from '../tests/e2e/support/api.ts';
import { generateMedia, serveMedia } from '../tests/e2e/support/media.ts';
import { buildWorld } from '../tests/e2e/support/world.ts';
import { benchArgs } from './args.ts';
import { BENCH_TOKEN, startServerProcess } from './server-process.ts';

const args = benchArgs({ pages: 5, changes: 20, runs: 10 }, ['no-build']);
const { pages: PAGES, changes: CHANGES, runs: RUNS } = args;
const WARMUP = 3;
const root = path.resolve(import.meta.dirname, '..');
const log = (...parts: unknown[]) => console.error('[wall]', ...parts);

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}
const round = (n: number) => Math.round(n * 10) / 10;
const kb = (bytes: number) => Math.round((bytes / 1024) * 10) / 10;

if (!args.on('no-build')) {
  log('building the web app');
  execFileSync(process.execPath, [path.join(root, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn'], { cwd: root, stdio: 'inherit' });
}

log('rendering local media');
const mediaDir = path.join(os.tmpdir(), 'nature-wall-e2e-media-v1');
await generateMedia(mediaDir);
const media = await serveMedia(mediaDir);
log('starting Nature Wall');
const server = await startServerProcess({ env: { SEED_DEMO: 'false', WEB_DIST: path.join(root, 'dist/web') } });
const api = apiClient(server.base, BENCH_TOKEN);
const world = await buildWorld(api, media);
const browser: Browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });

/**
 * Epoch ms in the page, recorded at every change of the viewer's scene, and at the arrival of
 * every default-scene push on the socket (to tell the hub's share from the page's).
 */
const SCENE_WATCH = `
  window.__pushLog = [];
  const NativeWebSocket = window.WebSocket;
  window.WebSocket = class extends NativeWebSocket {
    constructor(...args) {
      super(...args);
      this.addEventListener('message', (event) => {
        if (typeof event.data === 'string' && event.data.includes('scene:default-changed')) {
          window.__pushLog.push(performance.timeOrigin + performance.now());
        }
      });
    }
  };
  window.__sceneLog = [];
  let last = null;
  new MutationObserver(() => {
    const id = document.querySelector('.viewer')?.getAttribute('data-scene-id') ?? null;
    if (id !== null && id !== last) {
      last = id;
      window.__sceneLog.push({ id: Number(id), at: performance.timeOrigin + performance.now() });
    }
  }).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-scene-id'] });
`;

interface SceneLogEntry {
  id: number;
  at: number;
}

const nodeNow = () => performance.timeOrigin + performance.now();

/** page clock − Node clock, from the tightest of several round trips. */
async function clockOffset(page: Page): Promise<number> {
  let best = { rtt: Infinity, offset: 0 };
  for (let i = 0; i < 15; i++) {
    const before = nodeNow();
    const pageNow = await page.evaluate(() => performance.timeOrigin + performance.now());
    const after = nodeNow();
    if (after - before < best.rtt) best = { rtt: after - before, offset: pageNow - (before + after) / 2 };
  }
  return best.offset;
}

// ---- 1. scene switch on every wall ----------------------------------------------------------
type Log = { __sceneLog: SceneLogEntry[]; __pushLog: number[] };

async function measureSwitch(pageCount: number) {
  await api.setDefaultScene(world.scenes.morning.id);
  const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
  await context.addInitScript(SCENE_WATCH);
  const pages: Page[] = [];
  for (let i = 0; i < pageCount; i++) {
    const page = await context.newPage();
    await page.goto(`${server.base}/`);
    await page.waitForSelector(`.viewer[data-scene-id="${world.scenes.morning.id}"]`);
    pages.push(page);
  }
  await new Promise((r) => setTimeout(r, 2000)); // players start
  const offsets = await Promise.all(pages.map(clockOffset));
  const latencies: number[] = [];
  const pushes: number[] = [];
  let missed = 0;
  const targets = [world.scenes.ocean.id, world.scenes.morning.id];
  for (let i = 0; i < WARMUP + CHANGES; i++) {
    const target = targets[i % 2]!;
    const start = nodeNow();
    await api.setDefaultScene(target);
    const seen = await Promise.all(
      pages.map((page) =>
        page
          .waitForFunction((id) => (globalThis as unknown as { __sceneLog: SceneLogEntry[] }).__sceneLog.some((e) => e.id === id && e.at > 0), target, { timeout: 5000 })
          .then(() => page.evaluate(() => (globalThis as unknown as { __sceneLog: SceneLogEntry[] }).__sceneLog.at(-1)!))
          .catch(() => null),
      ),
    );
    const arrivals = await Promise.all(pages.map((page) => page.evaluate(() => (globalThis as unknown as Log).__pushLog.at(-1) ?? NaN)));
    seen.forEach((entry, p) => {
      if (i < WARMUP) return;
      if (!entry || entry.id !== target) missed++;
      else latencies.push(entry.at - offsets[p]! - start);
      if (Number.isFinite(arrivals[p])) pushes.push(arrivals[p]! - offsets[p]! - start);
    });
    for (const page of pages) {
      await page.evaluate(() => {
        (globalThis as unknown as Log).__sceneLog = [];
        (globalThis as unknown as Log).__pushLog = [];
      });
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  await context.close();
  latencies.sort((a, b) => a - b);
  pushes.sort((a, b) => a - b);
  return {
    pages: pageCount,
    changes: CHANGES,
    p50_ms: round(percentile(latencies, 50)),
    p95_ms: round(percentile(latencies, 95)),
    max_ms: round(latencies.at(-1) ?? NaN),
    missed,
    /** REST call → the push arriving on the page's socket (the hub's share of the above). */
    push_p50_ms: round(percentile(pushes, 50)),
    push_p95_ms: round(percentile(pushes, 95)),
  };
}

// ---- 2. HLS first frame ------------------------------------------------------------------------
const FIRST_FRAME = `
  new MutationObserver((_, observer) => {
    const video = document.querySelector('video');
    if (!video) return;
    observer.disconnect();
    video.requestVideoFrameCallback((now) => { window.__firstFrame = now; });
  }).observe(document, { subtree: true, childList: true });
`;

/**
 * Cold: a fresh browser context each run (empty HTTP and code caches: a tablet's first visit).
 * Warm: the same page loaded again in that context (the app's hashed files come from the
 * cache, as on every later start of a kiosk).
 */
async function measureFirstFrame() {
  const cold: number[] = [];
  const warm: number[] = [];
  const kiosk = `${server.base}/scenes/${world.scenes.morning.slug}/1`;
  const firstFrame = async (page: Page) => {
    const handle = await page.waitForFunction(() => (globalThis as unknown as { __firstFrame?: number }).__firstFrame, null, { timeout: 15_000 });
    return Number(await handle.jsonValue());
  };
  for (let i = 0; i < RUNS; i++) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
    await context.addInitScript(FIRST_FRAME);
    const page = await context.newPage();
    await page.goto(kiosk);
    cold.push(await firstFrame(page));
    await page.goto(kiosk);
    warm.push(await firstFrame(page));
    await context.close();
  }
  const summary = (times: number[]) => {
    times.sort((a, b) => a - b);
    return { p50_ms: round(percentile(times, 50)), min_ms: round(times[0]!), max_ms: round(times.at(-1)!) };
  };
  return { runs: RUNS, cold: summary(cold), warm: summary(warm) };
}

// ---- 3. JavaScript each route loads -------------------------------------------------------------
const ADMIN_CODE = /(Admin|RequireAdmin|LoginPage|auth-api|DebugPage|EvaluatePage|SubmitPage)-/;

async function measureScripts(route: string) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
  const page = await context.newPage();
  const scripts = new Map<string, number>();
  const reading: Promise<void>[] = [];
  page.on('response', (response) => {
    if (response.request().resourceType() !== 'script' || !response.url().startsWith(server.base)) return;
    reading.push(
      response.body().then((body) => {
        scripts.set(new URL(response.url()).pathname, gzipSync(body, { level: 9 }).length);
      }),
    );
  });
  await page.goto(`${server.base}${route}`, { waitUntil: 'networkidle' });
  await page.waitForTimeout(1500); // the player's chunk comes after the state
  await Promise.all(reading);
  await context.close();
  const names = [...scripts.keys()];
  const total = [...scripts.values()].reduce((a, b) => a + b, 0);
  const hls = names.filter((n) => /hls/.test(n)).reduce((a, n) => a + scripts.get(n)!, 0);
  return {
    gzip_kb: kb(total),
    gzip_kb_before_hls: kb(total - hls),
    hls_chunk_loaded: hls > 0,
    files: names.length,
    admin_code: names.some((n) => ADMIN_CODE.test(n)),
  };
}

try {
  log(`switch: ${PAGES} pages, ${CHANGES} changes`);
  const scene_switch = await measureSwitch(PAGES);
  log(`switch: 1 page, ${CHANGES} changes`);
  const scene_switch_one_wall = await measureSwitch(1);
  log('HLS first frame');
  const hls_first_frame = await measureFirstFrame();
  log('JavaScript per route');
  await api.setDefaultScene(world.scenes.morning.id); // its position 1 is the HLS camera
  const javascript = {
    '/': await measureScripts('/'),
    '/streams/1': await measureScripts('/streams/1'),
    '/admin': await measureScripts('/admin'),
  };
  const goals = {
    switch_p95_le_150ms: {
      five_walls: scene_switch.p95_ms <= 150 && scene_switch.missed === 0,
      one_wall: scene_switch_one_wall.p95_ms <= 150 && scene_switch_one_wall.missed === 0,
    },
    hls_first_frame_le_600ms: { cold: hls_first_frame.cold.p50_ms <= 600, warm: hls_first_frame.warm.p50_ms <= 600 },
    viewer_and_kiosk_le_150kb_before_hls_without_admin_code:
      javascript['/'].gzip_kb_before_hls <= 150 && javascript['/streams/1'].gzip_kb_before_hls <= 150 && !javascript['/'].admin_code && !javascript['/streams/1'].admin_code,
  };
  console.log(JSON.stringify({ scene_switch, scene_switch_one_wall, hls_first_frame, javascript, goals, machine: { cpus: os.cpus().length } }));
} finally {
  await browser.close();
  await server.stop();
  await media.close();
}
