/**
 * What a direct player does around a flip (DirectVideo.tsx), as plain rules.
 *
 * A player that comes with a flip (an incoming tile, card or kiosk stage: Player's `held`) loads
 * to its first picture, out of sight, and then holds — its loading stopped — until the flip is
 * past: its next segments are not fetched, transmuxed and appended in the frames around the
 * instant. And every player with a picture starts no new segment load in those frames. bench:wall's
 * video walls: the app's new tiles had their first picture p50 ~100 ms before the instant
 * against the bare wall's ~380, and its walls flipped 2–6 × as far apart as the bare wall's.
 */

/**
 * A held player holds at most this long, and only once its flip is this near: a change's lead may
 * be up to 10 s (SCENE_FLIP_LEAD_MS, scheduled changes come earlier still), and a player held for
 * all of it would play through its buffer out of sight. A flip later than this is late or gone.
 */
export const HOLD_MAX_MS = 1_500;

/**
 * A held player whose picture is off the shared moment seeks only while its flip is at least
 * this far: it loads again to the new position and holds there. Nearer the instant the seek
 * would leave the tile without a picture when it shows: it seeks after the flip instead.
 */
export const HELD_SEEK_LEAD_MS = 600;

/** Segment loads keep off from this long before a flip's instant... */
export const QUIET_LOADS_BEFORE_MS = 500;
/** ...until this long after it (its frame, the catch-up 150 ms later, and a margin): a flip left waiting never stops loads for good. */
export const QUIET_LOADS_AFTER_MS = 1_000;

export interface HoldReading {
  /** Player's `held`: its flip has not come yet. */
  held: boolean;
  /** Holding already. */
  holding: boolean;
  /** It held once for HOLD_MAX_MS and loads on. */
  spent: boolean;
  readyState: number;
  seeking: boolean;
  /** ms until the waiting flip's instant (Infinity: none waits). */
  msUntilFlip: number;
}

/**
 * Hold now? Once the flip is near, and only with a picture where it stands: hls.js seeks into its
 * first segment just after loading it ('loadeddata' comes at readyState 1 then), and a hold at that
 * point left the tile blank at its flip.
 */
export const shouldHold = (r: HoldReading): boolean =>
  r.held && !r.holding && !r.spent && r.readyState >= 2 && !r.seeking && r.msUntilFlip <= HOLD_MAX_MS;

/** May a holding player seek to the shared moment now (ms until its flip)? */
export const heldSeekAllowed = (msUntilFlip: number): boolean => msUntilFlip >= HELD_SEEK_LEAD_MS;

export interface LoadReading {
  readyState: number;
  /** A segment is loaded where it stands or on its way (media buffered at its playhead, or a segment request in flight). */
  segmentAsked: boolean;
}

/**
 * Should a player's segment loading pause (hls.js pauseBuffering: loads in flight finish,
 * playlists refresh)? Around a flip's instant, for a player with a picture or with its first
 * segment on its way: that segment still comes and gives the picture, and the segment after it
 * would only share the frames around the instant with the flip and with the other incoming tiles'
 * first segments (bench:wall's video walls, four pairs: new tiles had their picture p10 52–83 →
 * 146–202 ms before the flip in three). One that has not asked for a segment yet loads on — the
 * flip will show it.
 */
export const quietLoads = (r: LoadReading, msUntilFlip: number): boolean =>
  (r.readyState >= 2 || r.segmentAsked) && msUntilFlip < QUIET_LOADS_BEFORE_MS && msUntilFlip > -QUIET_LOADS_AFTER_MS;
