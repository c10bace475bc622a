/**
 * The same moment on every wall. A direct player on a screen that knows the server's clock
 * steers its playback toward one shared target:
 *
 * - live HLS with EXT-X-PROGRAM-DATE-TIME: the picture of (server time − the stream's shared
 *   latency), read through hls.js's `playingDate`;
 * - a looping file: (server time − the Unix epoch) modulo its duration.
 *
 * Small errors are closed by nudging the playback rate (the picture never jumps), large ones by
 * a seek. Live HLS without program date-time is left to hls.js's own live position, the same
 * distance behind the playlist's end on every screen (within one playlist refresh). Embedded
 * players (YouTube, Twitch…) are cross-origin iframes and cannot be steered.
 *
 * A camera's program date-time is its own clock's: playback follows the shared moment only as
 * far as the playlist allows (`planProgramSync`). A moment outside the window the camera serves
 * cannot be played: steering toward it fought hls.js (which snaps a playhead outside the window
 * back to its live edge) and froze the tile. Such a camera is followed by its live edge, and its
 * skew is shown on the tile for the operator.
 */

/** Below this error, the rate goes back to 1: a frame at 60 Hz is 16.7 ms. */
export const SYNC_DEADBAND_MS = 4;
/** Above this error a seek is cheaper than catching up (at 10 % it would take five seconds). */
export const SYNC_SEEK_MS = 500;
/** The rate moves by at most this much either way (10 %: unnoticeable on a nature camera). */
export const SYNC_MAX_RATE_DELTA = 0.1;
/** Rate change per ms of error (100 ms ahead → 0.95, closed in about two seconds). */
const SYNC_GAIN = 0.0005;
/** How often a player checks its error. */
export const SYNC_PERIOD_MS = 250;

export type SyncStep = { kind: 'seek'; bySeconds: number } | { kind: 'rate'; rate: number };

/** What to do about an error (ms; positive: this screen shows a later moment than the target). */
export function syncStep(errorMs: number): SyncStep {
  if (!Number.isFinite(errorMs)) return { kind: 'rate', rate: 1 };
  if (Math.abs(errorMs) >= SYNC_SEEK_MS) return { kind: 'seek', bySeconds: -errorMs / 1000 };
  if (Math.abs(errorMs) < SYNC_DEADBAND_MS) return { kind: 'rate', rate: 1 };
  const delta = Math.max(-SYNC_MAX_RATE_DELTA, Math.min(SYNC_MAX_RATE_DELTA, errorMs * SYNC_GAIN));
  return { kind: 'rate', rate: 1 - delta };
}

/** A looping file's error: where it plays against (server time mod duration), wrapped to the nearer side. */
export function loopErrorMs(currentTime: number, duration: number, serverNowMs: number): number {
  if (!(duration > 0)) return Number.NaN;
  const target = (serverNowMs / 1000) % duration;
  let error = currentTime - target;
  if (error > duration / 2) error -= duration;
  if (error < -duration / 2) error += duration;
  return error * 1000;
}

/** A live HLS stream's error: the program date-time it shows against (server time − latency). */
export function programErrorMs(playingDateMs: number, serverNowMs: number, latencyMs: number): number {
  return playingDateMs - (serverNowMs - latencyMs);
}

/** What a player read from its last playlist loads (hls.js's level details), on the server's clock. */
export interface PlaylistReading {
  /** The window's length (ms): the sum of its segments. */
  windowMs: number;
  targetDurationMs: number;
  /** The newest estimate of (edge program time − server time when the playlist was loaded), ms: the largest of the last few loads (a load just after a segment appeared is the truest). */
  skewMs: number;
}

export type ProgramPlan =
  /** Play `latencyMs` behind the server's clock in program time. */
  | { kind: 'follow'; latencyMs: number }
  /** The camera's clock is off by more than its window allows: hls.js's live edge, the skew flagged. */
  | { kind: 'edge'; skewMs: number };

/**
 * How far a camera's stamps may be from the server's clock and still be followed, beyond what
 * a live window's own timing explains (a segment appears up to a target duration after its
 * program time ends): encoders and packagers add a little.
 */
export const CAMERA_CLOCK_TOLERANCE_MS = 1_500;

/**
 * Follow the shared moment, or the live edge. The latency is the server's (or the same rule on
 * the same playlist: syncLatencyMs) shrunk to what the window allows — every screen reads the
 * same playlist, so every screen shrinks it alike. Then the moment (server time − latency) must
 * lie in the window as this screen sees it: no earlier than its start, and half a target
 * duration short of its edge, within the tolerance. `wasEdge` gives the decision hysteresis: a
 * camera near the limit does not flap.
 */
export function planProgramSync(reading: PlaylistReading, latencyMs: number | null, wasEdge = false): ProgramPlan {
  const margin = reading.targetDurationMs / 2;
  const fits = reading.windowMs - margin;
  if (latencyMs === null || fits < 2 * reading.targetDurationMs) return { kind: 'edge', skewMs: reading.skewMs };
  const latency = Math.min(latencyMs, fits);
  // The moment is `latency` behind the server; the window ends `skew` from the server's now (the
  // camera's clock and delivery): the moment must be half a target duration short of the edge
  // (media to play ahead of it) and not before the window's start.
  const slack = wasEdge ? CAMERA_CLOCK_TOLERANCE_MS / 2 : CAMERA_CLOCK_TOLERANCE_MS;
  const aheadOfMoment = reading.skewMs + latency; // program time the playlist has after the moment
  const afterStart = reading.windowMs - reading.skewMs - latency; // from the window's start to the moment
  if (aheadOfMoment < margin - slack || afterStart < -slack) return { kind: 'edge', skewMs: reading.skewMs };
  return { kind: 'follow', latencyMs: latency };
}

/** A seek must land where the player has media to play (never outside hls.js's window). */
export function seekTarget(to: number, seekable: readonly [number, number][]): number | null {
  for (const [start, end] of seekable) if (to >= start && to <= end) return to;
  return null;
}
