/**
 * hls.js's transmuxing worker, as a file of the build. The ESM build the app bundles carries no
 * worker of its own: without `workerPath` every tile's segments were transmuxed on the main
 * thread (bench:wall found it the largest script near a flip: the XHR handler's 2–3 s per run
 * against the bare page's 0.7–1.1), whatever `enableWorker` said. One worker serves every
 * player of a page (hls.js keeps it per path); a lone player does without (Player's `oneOfMany`). The screens' service worker caches it with the
 * Player chunk that imports it (vite.config.ts: a chunk's assets are part of the shell).
 */
import workerUrl from 'hls.js/dist/hls.worker.js?url';

export const HLS_WORKER_URL: string = workerUrl;
