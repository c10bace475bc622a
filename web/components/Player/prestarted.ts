/**
 * A kiosk's camera started before the app (web/prestart.ts), handed to the app's player of the
 * same stream when it mounts (DirectVideo.tsx): the segment is fetched, transmuxed and decoded
 * while the app's code is evaluated and rendered, not after. Taken once; a player of another
 * stream (or none within PRESTART_KEEP_MS) lets it go.
 */
import type HlsType from 'hls.js';

export interface Prestarted {
  /** The address the player resolves for its stream (Player's `source.src`). */
  src: string;
  Hls: typeof HlsType;
  hls: HlsType;
  video: HTMLVideoElement;
  /** Where the video plays until a player takes it: full screen, over the page. */
  holder: HTMLElement;
  /** hls.js gave up before a player took it: the player starts its own. */
  failed: boolean;
}

/** How long a started camera waits for its player (a kiosk pairing first never takes it). */
export const PRESTART_KEEP_MS = 15_000;

let offered: Prestarted | null = null;
/** A player has asked already (the app ran first: a warm load, its code cached): too late to start one. */
let asked = false;

export function playerAsked(): boolean {
  return asked;
}

export function offerPrestarted(started: Prestarted): void {
  offered = started;
  setTimeout(() => {
    if (offered === started) release(started);
  }, PRESTART_KEEP_MS);
}

/** Whether a camera started before the app waits for its player. */
export function cameraPrestarted(): boolean {
  return offered !== null;
}

/** Resolves once the started camera has a picture (or failed, or after `maxMs`; at once without one). */
export function cameraShown(maxMs: number): Promise<void> {
  const video = offered?.video;
  if (!video || video.readyState >= HTMLMediaElement.HAVE_CURRENT_DATA) return Promise.resolve();
  return new Promise((resolve) => {
    const signal = new AbortController();
    const done = () => {
      signal.abort();
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(done, maxMs);
    for (const type of ['loadeddata', 'error']) video.addEventListener(type, done, { once: true, signal: signal.signal });
  });
}

/** The camera started for `src`, if any and still healthy: the caller owns it from now on. */
export function takePrestarted(src: string): Prestarted | null {
  asked = true;
  const started = offered;
  offered = null;
  if (!started) return null;
  if (started.src === src && !started.failed) return started;
  release(started);
  return null;
}

function release(started: Prestarted): void {
  if (offered === started) offered = null;
  started.hls.destroy();
  started.video.removeAttribute('src');
  started.video.load();
  started.holder.remove();
}
