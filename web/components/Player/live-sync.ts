/**
 * The same moment on every wall. A direct player on a screen that knows the server's clock
 * steers its playback toward one shared target:
 *
 * - live HLS with EXT-X-PROGRAM-DATE-TIME: the picture of (server time − the stream's shared
 *   latency), read through hls.js's `playingDate`;
 * - a looping file: (server time − the Unix epoch) modulo its duration.
 *
 * Errors are closed by nudging the playback rate (the picture never jumps), only large ones
 * (SYNC_SEEK_MS) by a seek. Live HLS without program date-time is left to hls.js's own live
 * position, the same distance behind the playlist's end on every screen (within one playlist
 * refresh). Embedded players (YouTube, Twitch…) are cross-origin iframes and cannot be steered.
 *
 * A camera's program date-time is its own clock's: playback follows the shared moment only as
 * far as the playlist allows (`planProgramSync`, src/shared/streams/playback.ts). A moment outside the window the camera serves
 * cannot be played: steering toward it fought hls.js (which snaps a playhead outside the window
 * back to its live edge) and froze the tile. Such a camera is followed by its live edge, and its
 * skew is shown on the tile for the operator.
 */

/** Below this error, the rate goes back to 1: a frame at 60 Hz is 16.7 ms. */
export const SYNC_DEADBAND_MS = 4;
/**
 * Above this error a seek; below it the rate closes it. A seek is not free: the player loads and
 * decodes from a keyframe — on a busy wall a segment fetched, transmuxed and appended, often in
 * the frames of the next flip. With seeks from 500 ms, bench:wall's video walls sought ~100 times
 * in 12 changes (new tiles start 0.5–1.7 s behind on a slow machine, and the seek's own lead
 * carried it past its buffer), flipped 2–2.5 × as far apart as the bare wall, and left tiles
 * frozen at the end of their buffer; without those seeks, 1.2 × and every tile playing.
 */
export const SYNC_SEEK_MS = 2_000;
/** The rate moves by at most this much either way (10 %: unnoticeable on a nature camera)... */
export const SYNC_MAX_RATE_DELTA = 0.1;
/**
 * ...and by this much while the error is at least SYNC_CATCH_UP_MS, the way hls.js's own live
 * catch-up speeds playback up (`maxLiveSyncPlaybackRate`): 2 s closed in about eight seconds.
 */
export const SYNC_CATCH_UP_RATE_DELTA = 0.25;
/** The error from which the wider rate applies. */
export const SYNC_CATCH_UP_MS = 500;
/** Rate change per ms of error (100 ms ahead → 0.95, closed in about two seconds). */
const SYNC_GAIN = 0.0005;
/** How often a player checks its error. */
export const SYNC_PERIOD_MS = 250;

/** After a seek, the next waits at least this long (closing the error by rate meanwhile)... */
export const SEEK_SPACING_MS = 5_000;
/** ...twice as long each time a seek did not hold (another was needed within twice the wait), up to this. */
export const SEEK_SPACING_MAX_MS = 120_000;

export interface SeekBudget {
  /** When this player last sought (performance.now()); null: never. */
  lastAt: number | null;
  spacingMs: number;
}

export const freshSeekBudget = (): SeekBudget => ({ lastAt: null, spacingMs: SEEK_SPACING_MS });

/**
 * May a player seek now? On a screen that cannot keep up (five tiles decoding on a small or busy
 * machine) a tile falls behind, is sought, decodes from a keyframe to the new place — more load —
 * falls behind again and is sought again: it showed nothing but seeks while a page without the
 * sync played on (bench:wall's video walls: 2–9 of 15 tiles advancing, each sought in the last
 * two seconds). So seeks are spaced, the spacing doubling while seeks do not hold: such a tile
 * plays behind the others rather than not at all. The first seek is at once.
 */
export function spendSeek(budget: SeekBudget, now: number): { allowed: boolean; budget: SeekBudget } {
  if (budget.lastAt === null) return { allowed: true, budget: { ...budget, lastAt: now } };
  const since = now - budget.lastAt;
  if (since < budget.spacingMs) return { allowed: false, budget };
  const held = since >= 2 * budget.spacingMs;
  return { allowed: true, budget: { lastAt: now, spacingMs: held ? SEEK_SPACING_MS : Math.min(SEEK_SPACING_MAX_MS, budget.spacingMs * 2) } };
}

export type SyncStep = { kind: 'seek'; bySeconds: number } | { kind: 'rate'; rate: number };

/**
 * What to do about an error (ms; positive: this screen shows a later moment than the target).
 * `struggling`: the screen drops frames (its frame budget has stepped renditions down). It then
 * never seeks — a seek decodes from a keyframe, more of what it cannot keep up with; bench:wall's
 * slowed wall had its tiles sought 3 s ahead and left at the end of their buffer — and never
 * plays faster than the narrow rate: each frame played sooner is a frame more to decode each second.
 */
export function syncStep(errorMs: number, struggling = false): SyncStep {
  if (!Number.isFinite(errorMs)) return { kind: 'rate', rate: 1 };
  if (Math.abs(errorMs) >= SYNC_SEEK_MS && !struggling) return { kind: 'seek', bySeconds: -errorMs / 1000 };
  if (Math.abs(errorMs) < SYNC_DEADBAND_MS) return { kind: 'rate', rate: 1 };
  const cap = Math.abs(errorMs) >= SYNC_CATCH_UP_MS && !struggling ? SYNC_CATCH_UP_RATE_DELTA : SYNC_MAX_RATE_DELTA;
  const delta = Math.max(-cap, Math.min(cap, errorMs * SYNC_GAIN));
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

/** A seek must land where the player has media to play (never outside hls.js's window). */
export function seekTarget(to: number, seekable: readonly [number, number][]): number | null {
  for (const [start, end] of seekable) if (to >= start && to <= end) return to;
  return null;
}

/**
 * Where a live HLS player starts so that its first picture is already the shared moment: the
 * media time whose program date-time is `targetPdtMs` (read from the playlist's last segment),
 * if the window holds it (DirectVideo puts hls.js's live start there).
 */
export function programStartPosition(
  edge: { start: number; programDateTime: number },
  window: { start: number; end: number },
  targetPdtMs: number,
): number | null {
  const at = edge.start + (targetPdtMs - edge.programDateTime) / 1000;
  return at >= window.start && at <= window.end ? at : null;
}

/**
 * How far a live start may move to a segment's first frame: the steer's ±25 % closes a second in
 * about four, and the picture never stops meanwhile.
 */
export const START_SNAP_MAX_S = 1;
/** A start moved later keeps a target duration and this much media before the playlist's end: the next segment's publication. */
export const START_PUBLISH_MARGIN_S = 1;

/**
 * Where a live player starts near `at`: the nearest segment start within START_SNAP_MAX_S, else
 * `at` itself. A segment opens with a keyframe, so a start there shows its picture as soon as that
 * frame is decoded; a start inside a segment first decodes every frame from the segment's keyframe
 * up to it (for 2 s segments, a second of video on average) — on a wall, in the frames before its
 * flip (bench:wall's video walls: metadata → first picture 150–200 ms within a segment, against
 * ~50 at its start). The window's oldest segment is never taken: it is the next to leave the
 * window, and hls.js moves a playhead outside its window back to its live edge. A start moves
 * later only up to a target duration and START_PUBLISH_MARGIN_S before the playlist's end, so a
 * short window does not leave it waiting for the next segment.
 */
export function keyframeStart(at: number, playlist: { segmentStarts: readonly number[]; edge: number; targetDuration: number }): number {
  const latest = playlist.edge - playlist.targetDuration - START_PUBLISH_MARGIN_S;
  let best = at;
  let distance = Infinity;
  for (const start of playlist.segmentStarts.slice(1)) {
    if (start > at && start > latest) continue;
    if (Math.abs(start - at) < distance) {
      best = start;
      distance = Math.abs(start - at);
    }
  }
  return distance <= START_SNAP_MAX_S ? best : at;
}

/** The most a player aims ahead of its target for the time a start or a seek takes. */
export const SEEK_LEAD_MAX_MS = 2_000;
/** Residual errors beyond this say something else happened (a stall, a hold): not learnt from. */
const LEAD_EVIDENCE_MAX_MS = 1_500;

/**
 * A start or a seek lands where it aimed, but the picture stands still until the media there is
 * loaded and decoded, while the target moves on: the screen aims ahead by what its last ones
 * took. Learnt from the error read once the player plays again (negative: it landed behind),
 * halfway each time, so one odd landing does not swing it.
 */
export function learnSeekLead(leadMs: number, residualErrorMs: number): number {
  if (!Number.isFinite(residualErrorMs) || Math.abs(residualErrorMs) > LEAD_EVIDENCE_MAX_MS) return leadMs;
  return Math.round(Math.max(0, Math.min(SEEK_LEAD_MAX_MS, leadMs - residualErrorMs / 2)));
}
