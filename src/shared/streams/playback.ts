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
 * live edge) and a second (time for a slow screen to fetch). The same for every screen because
 * it is computed once, from the playlist; players use it too for a stream not analysed yet.
 */
export function syncLatencyMs(targetDurationSeconds: number): number {
  return Math.round((3 * targetDurationSeconds + 1) * 1000);
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
