/**
 * How every direct HLS tile runs hls.js (DirectVideo.tsx); bench:wall's bare wall plays its tiles
 * with the same settings, so the two differ only by the app.
 */
export const HLS_SETTINGS = {
  maxBufferLength: 12, // live cameras: a short buffer, five of them on a wall
  backBufferLength: 10,
  liveDurationInfinity: true,
  startFragPrefetch: true, // fetch the first segment without waiting for the MediaSource
  // Transmuxing off the main thread: five HD streams must not jank the wall. The app's ESM
  // build needs the worker's file too (hls-worker.ts: `workerPath`), and uses it only where a
  // screen has several players (Player's `oneOfMany`); the bare wall's UMD build has it inline.
  enableWorker: true,
  // The rendition that fits the tile's box (at most 2 device pixels per CSS pixel): a
  // postcard-sized tile does not decode a camera's 1080p.
  capLevelToPlayerSize: true,
  maxDevicePixelRatio: 2,
} as const;
