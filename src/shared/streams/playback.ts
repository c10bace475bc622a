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
