/**
 * Which streams a scene shows (spec §4 "Scene selection by algorithm"), as one pure function
 * so the REST endpoint, the hub's pushes and the tests agree on every rule.
 */
import type { SelectionAlgorithm } from '../constants.ts';
import { inDaylight } from './daylight.ts';

export interface SelectableStream {
  id: number;
  active: boolean;
  created_at: string | Date;
  quality_score: number | null;
  /** An offline stream (src/shared/quality/health.ts) is shown only when nothing healthy can take its place. */
  health?: string;
  /** Where it is (daylight scenes need it). */
  latitude?: number | null;
  longitude?: number | null;
  /** A recording replayed as live stays off pool scenes unless an admin said it is fine. */
  looped?: unknown;
  recording_ok?: boolean;
}

export interface Placement {
  stream_id: number;
  position: number;
}

export interface SelectableScene {
  selection_algorithm: SelectionAlgorithm | (string & {});
  max_streams: number;
}

export type Positioned<T> = T & { position: number };

/** What pool scenes (recent, ranked, daylight) may show. */
const poolable = (s: SelectableStream) => s.active && (!s.looped || s.recording_ok === true);

const time = (value: string | Date) => (value instanceof Date ? value.getTime() : Date.parse(value));

/** Offline streams after every other: a wall replaces a dead camera, but never goes empty for it. */
const offlineLast = (a: SelectableStream, b: SelectableStream) => Number(a.health === 'offline') - Number(b.health === 'offline');

/** Newest first; the higher id wins a tie so the order never depends on the database's mood. */
function byNewest(a: SelectableStream, b: SelectableStream): number {
  return offlineLast(a, b) || time(b.created_at) - time(a.created_at) || b.id - a.id;
}

/** Best quality score first, unanalysed streams last, newest first among equals. */
function byQuality(a: SelectableStream, b: SelectableStream): number {
  const sa = a.quality_score ?? -1;
  const sb = b.quality_score ?? -1;
  return offlineLast(a, b) || sb - sa || byNewest(a, b);
}

/**
 * The scene's streams in screen order, numbered 1..n:
 * - recent: newest active streams, up to max_streams;
 * - ranked: its picks in tile order (the ranking keeps them: src/shared/scenes/ranking.ts), then
 *   active streams by quality score (best first, unanalysed last), up to max_streams;
 * - recent, ranked and daylight leave out recordings replayed as live (unless marked fine);
 * - daylight: healthy streams where the sun is above the horizon at `now`, by quality; where it
 *   is night everywhere, the best not degraded; streams without coordinates are left out;
 * - in both, offline streams come after every healthy one (self-healing walls);
 * - manual: the placed streams in slot order, active ones only;
 * - anything else: nothing.
 * `pool` may hold every stream or only the candidates the database pre-selected in the same order.
 */
export function selectSceneStreams<T extends SelectableStream>(
  scene: SelectableScene,
  pool: readonly T[],
  placements: readonly Placement[],
  /** The instant a `daylight` scene is chosen for. */
  now: number = Date.now(),
): Positioned<T>[] {
  const limit = Math.max(0, scene.max_streams);
  let chosen: T[];
  switch (scene.selection_algorithm) {
    case 'recent':
      chosen = pool.filter(poolable).sort(byNewest).slice(0, limit);
      break;
    case 'ranked': {
      // Its picks where it has them (src/shared/scenes/ranking.ts keeps them), the best by quality for the rest.
      const byId = new Map(pool.filter(poolable).map((s) => [s.id, s]));
      const picked = [...placements].sort((a, b) => a.position - b.position).map((p) => byId.get(p.stream_id)).filter((s): s is T => s !== undefined && s.health !== 'offline');
      const rest = [...byId.values()].filter((s) => !picked.includes(s)).sort(byQuality);
      chosen = [...picked, ...rest].sort(offlineLast).slice(0, limit);
      break;
    }
    case 'daylight': {
      // Healthy streams with coordinates where the sun is up, best first; where it is night
      // everywhere, the best whose analysis did not find them degraded (dark, frozen).
      const healthy = pool.filter((s) => poolable(s) && s.health !== 'offline' && inDaylight({ latitude: s.latitude ?? null, longitude: s.longitude ?? null }, now) !== null);
      const lit = healthy.filter((s) => inDaylight({ latitude: s.latitude ?? null, longitude: s.longitude ?? null }, now));
      chosen = (lit.length ? lit : healthy.filter((s) => s.health !== 'degraded')).sort(byQuality).slice(0, limit);
      break;
    }
    case 'manual': {
      const byId = new Map(pool.map((s) => [s.id, s]));
      chosen = [...placements]
        .sort((a, b) => a.position - b.position)
        .map((p) => byId.get(p.stream_id))
        .filter((s): s is T => s !== undefined && s.active);
      break;
    }
    default:
      chosen = [];
  }
  return chosen.map((stream, index) => ({ ...stream, position: index + 1 }));
}
