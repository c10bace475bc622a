/**
 * hls.js, fetched once and only when an HLS stream is shown. The player asks for it as soon as
 * it knows its stream is HLS, so the chunk downloads while the video element is being set up.
 */
import type Hls from 'hls.js';

let loading: Promise<typeof Hls> | null = null;

export function loadHls(): Promise<typeof Hls> {
  loading ??= import('hls.js/light').then(
    (module) => module.default,
    (error: unknown) => {
      loading = null; // let a later retry fetch it again
      throw error;
    },
  );
  return loading;
}

/** Media Source Extensions (or Apple's managed variant): where hls.js can play. */
export function hasMediaSource(): boolean {
  const mse = (window as { ManagedMediaSource?: unknown }).ManagedMediaSource ?? window.MediaSource;
  return typeof mse === 'function';
}

// The server hinted hls.js in this page's HTML because the screen's stream is HLS
// (src/http/web-hints.ts): evaluate it now, while the page waits for its first state.
if (typeof document !== 'undefined' && document.querySelector('link[data-player="hls"]') && hasMediaSource()) loadHls().catch(() => {});
