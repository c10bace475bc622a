/**
 * The same walls without the app (issue 39): a page of a few dozen lines that plays five live HLS
 * tiles with hls.js (the app's own configuration, passed in) and flips the way the app does —
 * each change's incoming tiles drawn ahead and transparent when it is told of the change (at
 * least 800 ms before its instant), one attribute on <html> changed in the animation frame of the
 * instant (woken 100 ms early, then the first frame that begins at most 8 ms before it), the
 * leaving players destroyed 150 ms later — what the app does, minus the app. It is told each
 * instant on the machine's true clock (`window.__realNow`, from bench/wall.ts's watch), and
 * announces each flip as the app does (`nw:flip`, with `renderedAt`): the bench measures both
 * the same way, in the same run. `?flip=compositor` (bench/flip-picture.ts) trades the sides'
 * opacity by Web Animations that start at the instant on the document timeline instead: the
 * compositor presents them, the main thread is not asked at the instant.
 */
import { readFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');

/** The page. `__HLS_CONFIG__` is replaced by the app's hls.js settings (JSON). */
const PAGE = `<!doctype html>
<html lang="en" data-side="now"><head><meta charset="utf-8"><title>Bare wall</title>
<style>
  html, body { margin: 0; height: 100%; background: #05080a; overflow: hidden; }
  .wall-tile { position: absolute; width: calc(100% / 3); height: 50%; overflow: hidden; }
  .wall-tile video { width: 100%; height: 100%; object-fit: cover; display: block; }
  .wall-tile .title { position: absolute; left: 12px; bottom: 10px; color: #fff; font: 600 18px system-ui, sans-serif; }
  :root:not(.compositor)[data-side='now'] [data-stage='next'], :root[data-side='next'] [data-stage='now'] { opacity: 0 !important; }
  /* ?flip=compositor: the waiting side is transparent until its animation, promoted ahead. */
  :root.compositor [data-stage='next'] { opacity: 0; }
  :root.compositor .wall-tile { will-change: opacity; }
</style>
<script src="/hls.js"></script></head>
<body><script>
  const CONFIG = __HLS_CONFIG__;
  // ?flip=compositor: the sides trade opacity by animations whose start time is the instant on the
  // document timeline — the compositor presents them; the main thread is not asked at the instant.
  const COMPOSITOR = new URLSearchParams(location.search).get('flip') === 'compositor';
  if (COMPOSITOR) document.documentElement.classList.add('compositor');
  // The app's grid for five: three across the top, two centred below.
  const SLOTS = [[0, 0], [1, 0], [2, 0], [0.5, 1], [1.5, 1]];
  let shown = new Map();
  let version = 0;
  function tile(stream, index, stage) {
    const el = document.createElement('div');
    el.className = 'wall-tile' + (stage ? ' wall-tile--incoming' : '');
    if (stage) el.setAttribute('data-stage', stage);
    el.style.left = (SLOTS[index][0] * 100) / 3 + '%';
    el.style.top = SLOTS[index][1] * 50 + '%';
    const player = document.createElement('div');
    player.className = 'player';
    player.setAttribute('data-stream-id', String(stream.id));
    const video = document.createElement('video');
    video.muted = true; video.autoplay = true; video.playsInline = true;
    player.append(video);
    const title = document.createElement('div');
    title.className = 'title'; title.textContent = stream.name;
    el.append(player, title);
    document.body.append(el);
    const hls = new Hls(CONFIG);
    hls.loadSource(stream.url);
    hls.attachMedia(video);
    video.play().catch(() => {});
    return { el, hls, video };
  }
  window.__show = (streams) => {
    streams.forEach((s, i) => shown.set(s.id, tile(s, i, null)));
  };
  // A change: its incoming tiles now, the flip at 'instant' (the true clock, ms since the epoch).
  window.__switch = (streams, instant, at) => {
    const v = ++version;
    window.__toldAt = performance.now(); // when it heard (bench:wall's NW_BENCH_DEBUG trace)
    const nextIds = new Set(streams.map((s) => s.id));
    const incoming = new Map();
    streams.forEach((s, i) => { if (!shown.has(s.id)) incoming.set(s.id, tile(s, i, 'next')); });
    const leaving = [...shown].filter(([id]) => !nextIds.has(id));
    for (const [, t] of leaving) t.el.setAttribute('data-stage', 'now');
    const localAt = instant - window.__realNow() + performance.now();
    if (COMPOSITOR) {
      const hold = (el, opacity) => {
        const a = el.animate([{ opacity }, { opacity }], { duration: 1e7, fill: 'forwards' });
        a.startTime = localAt - 8; // the frame that begins at most 8 ms before the instant, as the main-thread flip
        return a;
      };
      const animations = [...[...incoming.values()].map((t) => hold(t.el, 1)), ...leaving.map(([, t]) => hold(t.el, 0))];
      setTimeout(() => {
        for (const [id, t] of leaving) { t.hls.destroy(); t.el.remove(); shown.delete(id); }
        for (const [id, t] of incoming) { t.el.removeAttribute('data-stage'); t.el.classList.remove('wall-tile--incoming'); shown.set(id, t); }
        for (const a of animations) a.cancel();
        window.dispatchEvent(new CustomEvent('nw:flip', { detail: { version: v, at, frameTime: localAt, renderedAt: localAt } }));
      }, Math.max(0, localAt - performance.now()) + 150);
      return;
    }
    const commit = (frameTime) => {
      document.documentElement.setAttribute('data-side', 'next');
      scheduler.postTask(() => {
        const renderedAt = performance.now();
        setTimeout(() => {
          for (const [id, t] of leaving) { t.hls.destroy(); t.el.remove(); shown.delete(id); }
          for (const [id, t] of incoming) { t.el.removeAttribute('data-stage'); t.el.classList.remove('wall-tile--incoming'); shown.set(id, t); }
          document.documentElement.setAttribute('data-side', 'now');
          window.dispatchEvent(new CustomEvent('nw:flip', { detail: { version: v, at, frameTime, renderedAt } }));
        }, 150);
      }, { priority: 'user-blocking' });
    };
    const onFrame = (time) => { if (time >= localAt - 8) commit(time); else requestAnimationFrame(onFrame); };
    setTimeout(() => requestAnimationFrame(onFrame), Math.max(0, localAt - performance.now() - 100));
  };
</script></body></html>`;

/**
 * A kiosk without the app (`/kiosk?src=…`): one live HLS camera in a full-screen video, hls.js's
 * light build (what the app's player loads) with the same settings, started as the page parses.
 * Its cold first frame is the floor for the app's kiosk on the same machine (bench:wall).
 */
const KIOSK = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Bare kiosk</title>
<style>html, body { margin: 0; height: 100%; background: #05080a; } video { width: 100%; height: 100%; object-fit: contain; display: block; }</style>
<script src="/hls.js"></script></head>
<body><video muted autoplay playsinline></video><script>
  const video = document.querySelector('video');
  const hls = new Hls(__HLS_CONFIG__);
  hls.loadSource(new URLSearchParams(location.search).get('src'));
  hls.attachMedia(video);
  video.play().catch(() => {});
</script></body></html>`;

export interface BareWallServer {
  base: string;
  close(): Promise<void>;
}

/** Serves the wall page and the kiosk page (with `hlsConfig`) and hls.js's light build on 127.0.0.1. */
export async function serveBareWall(hlsConfig: Record<string, unknown>): Promise<BareWallServer> {
  const hls = await readFile(path.join(root, 'node_modules/hls.js/dist/hls.light.min.js'));
  const page = PAGE.replace('__HLS_CONFIG__', JSON.stringify(hlsConfig));
  // One player alone: hls.js transmuxes on the main thread, as the app's kiosk does (Player's `oneOfMany`).
  const kiosk = KIOSK.replace('__HLS_CONFIG__', JSON.stringify({ ...hlsConfig, enableWorker: false }));
  const server = http.createServer((req, res) => {
    if (req.url === '/hls.js') return res.writeHead(200, { 'content-type': 'text/javascript', 'cache-control': 'max-age=3600' }).end(hls);
    if (req.url?.startsWith('/kiosk?')) return res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(kiosk);
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
