/**
 * The player's states (spec §4), pure so they are table-tested:
 *
 *   loading ──ready──▶ ready ──error──▶ error
 *      └──────────error───────────────────┘
 *
 * `health` is what the hub is told (loading / playing / stalled / error). A direct stream that
 * fails or stalls is retried with backoff, alternating with its fallback URL; a background
 * retry keeps the failure panel up until the stream plays again, a manual one shows loading.
 */
import type { PlaybackState } from '../../../src/shared/events.ts';

export type PlayerPhase = 'loading' | 'ready' | 'error';

export interface PlayerState {
  phase: PlayerPhase;
  health: PlaybackState;
  /** Failed attempts since the stream last played: picks the next backoff delay. */
  attempt: number;
  /** Index of the URL being tried (0 the stream's URL, 1 its fallback). */
  candidate: number;
  /** Bumped on every retry: the media element is rebuilt from scratch. */
  generation: number;
}

export type PlayerEvent =
  | { type: 'ready' }
  | { type: 'playing' }
  | { type: 'stalled' }
  | { type: 'error' }
  | { type: 'retry'; manual: boolean; candidates: number };

/** What the media element (or frame) tells the player. */
export type MediaEvent = Exclude<PlayerEvent, { type: 'retry' }>['type'];

export const initialPlayerState: PlayerState = { phase: 'loading', health: 'loading', attempt: 0, candidate: 0, generation: 0 };

/** Spec §9 backoff (1, 2, 5, 10 s), then every 30 s, then every minute: walls are unattended. */
const RETRY_DELAYS_MS = [1000, 2000, 5000, 10_000, 30_000];
export const MAX_RETRY_DELAY_MS = 60_000;

export function retryDelay(attempt: number): number {
  return RETRY_DELAYS_MS[attempt] ?? MAX_RETRY_DELAY_MS;
}

/** Embedded players are taken as ready after this long even without a load event (spec §9). */
export const EMBED_READY_MS = 1000;
export const EMBED_READY_FULLSCREEN_MS = 1500;
/** YouTube: a tap-to-play overlay if the embed has not started this long after ready. */
export const TAP_TO_PLAY_MS = 5000;
/** How often a direct player checks that its picture advances. */
export const PROGRESS_CHECK_MS = 1000;
/** A direct stream whose picture has not advanced this long is reported stalled ... */
export const STALL_REPORT_MS = 3000;
/** ... and reloaded after this long. */
export const STALL_RETRY_MS = 15_000;

export function playerReducer(state: PlayerState, event: PlayerEvent): PlayerState {
  switch (event.type) {
    case 'ready':
      if (state.phase === 'ready') return state;
      return { ...state, phase: 'ready', health: state.health === 'playing' ? 'playing' : 'loading' };
    case 'playing':
      if (state.phase === 'ready' && state.health === 'playing' && state.attempt === 0) return state;
      return { ...state, phase: 'ready', health: 'playing', attempt: 0 };
    case 'stalled':
      return state.health === 'stalled' || state.phase === 'error' ? state : { ...state, health: 'stalled' };
    case 'error':
      return state.phase === 'error' && state.health === 'error' ? state : { ...state, phase: 'error', health: 'error' };
    case 'retry':
      return {
        phase: event.manual || state.phase !== 'error' ? 'loading' : 'error',
        health: event.manual || state.phase !== 'error' ? 'loading' : 'error',
        attempt: event.manual ? 0 : state.attempt + 1,
        candidate: event.candidates > 1 ? (state.candidate + 1) % event.candidates : 0,
        generation: state.generation + 1,
      };
  }
}

/** What a player's picture had done at one check: frames presented (null: uncounted) and playhead. */
export interface PictureSample {
  frames: number | null;
  time: number;
}

export function pictureSample(video: HTMLVideoElement): PictureSample {
  const frames = typeof video.getVideoPlaybackQuality === 'function' ? video.getVideoPlaybackQuality().totalVideoFrames : null;
  return { frames, time: video.currentTime };
}

/**
 * Did the picture advance between two checks? It played: no seek in between (a seek moves the
 * playhead and fires 'timeupdate' without playing; a tile whose sync fought hls.js was sought
 * four times a second and looked alive), the playhead moved forward and, where the browser
 * counts them, new frames were presented.
 */
export function pictureAdvanced(before: PictureSample | null, now: PictureSample, sought: boolean): boolean {
  if (!before || sought || !(now.time > before.time)) return false;
  return now.frames === null || before.frames === null || now.frames > before.frames;
}
