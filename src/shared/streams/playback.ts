/**
 * How a direct HLS stream starts and plays in step, chosen once by the server's analysis from
 * the stream's playlist (src/modules/quality/analyzer/hls.ts) and sent to every screen with
 * the stream — so every screen plays it at the same latency and starts it the same cheap way.
 */

/** The server's choice for one stream (null fields: nothing to choose, the player's defaults). */
export interface PlaybackHints {
  /** Shared latency behind program date-time, ms; null when the playlist has no program date-time. */
  sync_latency_ms: number | null;
  /** Bits/s of the variant to start at (a master playlist's cheap one); null for a single variant. */
  start_bandwidth: number | null;
  /**
   * How far the camera's program date-time was from the server's clock at the analysis (ms,
   * positive: fast; whole seconds) when it is off by more than its window lets screens follow
   * (`planProgramSync`): screens play its live edge, and the console shows the skew so an
   * operator can set the camera's clock. Null: on time, or no program date-time. Optional: hints
   * stored before it was measured have none.
   */
  camera_skew_ms?: number | null;
}

/**
 * The shared latency behind program time: three target durations (what hls.js keeps behind the
 * live edge) and a second (time for a slow screen to fetch) — but never more than the playlist's
 * window allows: the moment played must still be in the window when the window slides, half a
 * target duration from its start. A camera with a 3-segment window of 2 s plays 5 s behind, not
 * 7 (7 s is before its window: hls.js would snap the playhead back to its live edge and the
 * sync would seek it away again, for ever). The same for every screen because it is computed
 * from the playlist; null when the window is too short to play behind at all (under two target
 * durations and a half: screens follow hls.js's live edge).
 */
export function syncLatencyMs(targetDurationSeconds: number, windowSeconds = Infinity): number | null {
  const wanted = 3 * targetDurationSeconds + 1;
  const fits = windowSeconds - targetDurationSeconds / 2;
  if (fits < 2 * targetDurationSeconds) return null;
  return Math.round(Math.min(wanted, fits) * 1000);
}

/** A tile of a wall or a tablet needs no more than this to look right in its first seconds. */
const START_HEIGHT = 360;

/**
 * The variant to start at: the cheapest that is at least 360 p high (or the cheapest of all,
 * when none is): its first segment arrives and decodes soonest, and hls.js's ABR climbs from
 * there as soon as it has measured the link. Null for fewer than two variants.
 */
export function startBandwidth(variants: readonly { bandwidth: number | null; height: number | null }[]): number | null {
  const known = variants.filter((v): v is { bandwidth: number; height: number | null } => typeof v.bandwidth === 'number' && v.bandwidth > 0);
  if (known.length < 2) return null;
  const byCost = [...known].sort((a, b) => a.bandwidth - b.bandwidth);
  return (byCost.find((v) => (v.height ?? 0) >= START_HEIGHT) ?? byCost[0]!).bandwidth;
}

/** What a player (or the analysis) read from a camera's playlist loads, on the server's clock. */
export interface PlaylistReading {
  /** The window's length (ms): the sum of its segments. */
  windowMs: number;
  targetDurationMs: number;
  /** (edge program time − server time when the playlist was loaded), ms: the largest of the last few loads (a load just after a segment appeared is the truest). */
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

/** The skew the hints carry: whole seconds when the camera cannot be followed, else null. */
export function cameraSkewHint(reading: PlaylistReading, latencyMs: number | null): number | null {
  if (latencyMs === null) return null;
  const plan = planProgramSync(reading, latencyMs);
  return plan.kind === 'edge' ? Math.round(plan.skewMs / 1000) * 1000 : null;
}
