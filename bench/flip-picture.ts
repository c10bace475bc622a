/**
 * `npm run bench:flip-picture`: issue 39's item 3 — can a flip the compositor presents on its own
 * (Web Animations on opacity, their start time the instant on the document timeline, layers
 * promoted ahead) beat the main-thread flip (one attribute on <html> in the animation frame of
 * the instant) when every tile plays video? Measured at the picture: CDP `Page.startScreencast`
 * frames with their timestamps, and for each change the first frame whose first tile shows the
 * new camera (each camera's tile carries a block of its own colour, read from the JPEG).
 *
 * The bare wall (bench/bare-wall.ts) in both modes, 3 walls × 5 live HLS tiles (the quality
 * corpus's timed ladder), the modes alternating; then the same with each wall's main thread
 * made busy (a 150 ms loop every 100 ms: a main thread that cannot take the flip frame on time).
 * Per mode: lateness (the frame's timestamp − the instant, both the machine's clock), skew across
 * the walls, and the screencast's resolution — the time from the last frame that still showed
 * the old camera to the first that shows the new one (the change happened in between). For the
 * main-thread flip, the page's own account beside it (the end of its flip frame's rendering).
 * Options: --changes N (default 10), --runs N (pairs per load, default 2). Last line: one JSON object.
 */
import { performance } from 'node:perf_hooks';
import jpeg from 'jpeg-js';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../playwright.config.ts';
import { serveCorpus } from '../tests/support/quality-corpus.ts';
import { HLS_SETTINGS } from '../web/components/Player/hls-settings.ts';
import { benchArgs } from './args.ts';
import { serveBareWall } from './bare-wall.ts';
import { VIDEO_SCENES as SCENES } from './video-scenes.ts';
import { percentile } from './stats.ts';

const args = benchArgs({ changes: 10, runs: 2 });
const log = (...parts: unknown[]) => console.error('[flip-picture]', ...parts);
const nodeNow = () => performance.timeOrigin + performance.now();
const round = (n: number) => Math.round(n * 10) / 10;
const WARMUP = 2;
const WALLS = 3;
const COLOURS = [
  [255, 0, 0],
  [0, 255, 0],
  [0, 0, 255],
  [255, 255, 0],
  [255, 0, 255],
  [0, 255, 255],
  [255, 255, 255],
  [255, 128, 0],
  [128, 0, 255],
  [0, 128, 64],
] as const;
/** A block of the camera's colour in its tile's corner: part of the tile's layer, so it flips with it. */
const MARKS = COLOURS.map((c, i) => `.player[data-stream-id="${i}"]::after { content: ''; position: absolute; left: 0; top: 0; width: 64px; height: 64px; background: rgb(${c.join(',')}); }`).join('\n');
/** Screencast size: the 1280×720 page at a quarter; the first tile's block is at (0–16, 0–16). */
const CAST = { format: 'jpeg', quality: 30, maxWidth: 320, maxHeight: 180 } as const;

/** The camera whose colour the frame shows at (x, y), or -1 (none near enough). */
function cameraAt(data: string, x: number, y: number): number {
  const image = jpeg.decode(Buffer.from(data, 'base64'), { useTArray: true });
  const o = (y * image.width + x) * 4;
  let best = -1;
  let bestDistance = 3 * 60 ** 2;
  COLOURS.forEach((c, i) => {
    const d = (c[0] - image.data[o]!) ** 2 + (c[1] - image.data[o + 1]!) ** 2 + (c[2] - image.data[o + 2]!) ** 2;
    if (d < bestDistance) [best, bestDistance] = [i, d];
  });
  return best;
}

log('serving the corpus and the bare wall');
const corpus = await serveCorpus();
const streams = Array.from({ length: 10 }, (_, i) => ({ id: i, name: `Camera ${i + 1}`, url: corpus.timedLadder({ window: 3, tag: `picture-${i}` }) }));
const bare = await serveBareWall({ ...HLS_SETTINGS });
const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });

type Mode = 'attribute' | 'compositor';

async function run(mode: Mode, busyMs: number) {
  const contexts: BrowserContext[] = [];
  const pages: Page[] = [];
  const frames: { at: number; data: string }[][] = [];
  for (let w = 0; w < WALLS; w++) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
    contexts.push(context);
    await context.addInitScript(`
      window.__realNow = () => performance.timeOrigin + performance.now();
      window.__rendered = new Map();
      // The main-thread flip's own account of its flip frame, by the instant it was told (the compositor flip has none).
      if (${JSON.stringify(mode)} === 'attribute') window.addEventListener('nw:flip', (e) => window.__rendered.set(e.detail.at, performance.timeOrigin + e.detail.renderedAt));
    `);
    const page = await context.newPage();
    await page.goto(`${bare.base}/?flip=${mode}`);
    await page.addStyleTag({ content: MARKS });
    await page.evaluate((s) => (globalThis as unknown as { __show(s: unknown): void }).__show(s), SCENES[0]!.map((n) => streams[n]!));
    if (busyMs) {
      await page.evaluate((ms) => {
        setInterval(() => {
          const end = performance.now() + ms;
          while (performance.now() < end);
        }, 100);
      }, busyMs);
    }
    const cdp = await context.newCDPSession(page);
    const list: { at: number; data: string }[] = [];
    cdp.on('Page.screencastFrame', (frame) => {
      list.push({ at: frame.metadata.timestamp! * 1000, data: frame.data });
      void cdp.send('Page.screencastFrameAck', { sessionId: frame.sessionId }).catch(() => undefined);
    });
    await cdp.send('Page.startScreencast', CAST);
    pages.push(page);
    frames.push(list);
  }
  await new Promise((r) => setTimeout(r, 5_000)); // tiles start
  const lates: number[] = [];
  const skews: number[] = [];
  const gaps: number[] = [];
  const pageSaid: number[] = [];
  let missed = 0;
  for (let i = 0; i < WARMUP + args.changes; i++) {
    const scene = SCENES[(i + 1) % SCENES.length]!;
    for (const list of frames) list.length = 0;
    const instant = nodeNow() + 800; // the app's lead
    await Promise.all(
      pages.map((page) =>
        page.evaluate(([s, at]) => (globalThis as unknown as { __switch(s: unknown, a: number, b: number): void }).__switch(s, at, at), [scene.map((n) => streams[n]!), instant] as const),
      ),
    );
    await new Promise((r) => setTimeout(r, 1_600));
    if (i < WARMUP) continue;
    const shown: number[] = [];
    for (const [w, list] of frames.entries()) {
      const sorted = [...list].sort((a, b) => a.at - b.at);
      const hit = sorted.findIndex((f) => f.at > instant - 400 && cameraAt(f.data, 4, 4) === scene[0]);
      if (hit < 0) {
        missed++;
        continue;
      }
      // The frame before it must still show the old camera: otherwise the change is not bounded.
      if (hit === 0 || sorted[hit - 1]!.at <= instant - 400) {
        missed++;
        continue;
      }
      shown.push(sorted[hit]!.at);
      lates.push(sorted[hit]!.at - instant);
      gaps.push(sorted[hit]!.at - sorted[hit - 1]!.at);
      if (mode === 'attribute') {
        const said = await pages[w]!.evaluate((at) => (globalThis as unknown as { __rendered: Map<number, number> }).__rendered.get(at), instant);
        if (typeof said === 'number') pageSaid.push(said - instant); // the same machine's clock (to a ms or so)
      }
    }
    if (shown.length === WALLS) skews.push(Math.max(...shown) - Math.min(...shown));
  }
  await Promise.all(contexts.map((c) => c.close()));
  const figure = (values: number[]) => (values.length ? { p50_ms: round(percentile(values, 50)), p95_ms: round(percentile(values, 95)) } : null);
  return {
    mode,
    busy_main_thread_ms: busyMs,
    picture_late: figure(lates),
    picture_skew: figure(skews),
    /** The change happened within this long before the frame that shows it. */
    screencast_resolution: figure(gaps),
    /** Main-thread flip only: when the page itself saw its flip frame rendered, − the instant. */
    page_said_late: mode === 'attribute' ? figure(pageSaid) : null,
    missed,
  };
}

const results = [];
try {
  for (const busy of [0, 150]) {
    for (let r = 0; r < args.runs; r++) {
      for (const mode of ['attribute', 'compositor'] as const) {
        log(`${mode} flip, main thread ${busy ? `busy ${busy} ms of every 100` : 'as the tiles leave it'}: run ${r + 1}`);
        const result = await run(mode, busy);
        log(JSON.stringify(result));
        results.push(result);
      }
    }
  }
} finally {
  await browser.close();
  await bare.close();
  await corpus.close();
}
if (results.every((r) => r.picture_late === null)) throw new Error('no flip was seen at the picture: the measurement is broken, no figure');
console.log(JSON.stringify({ walls: WALLS, changes: args.changes, runs: results }));
