/**
 * The admin console's rules as plain functions (spec §4, §5, §9), table-tested in
 * tests/unit-web/admin-rules.test.ts: stream filters, search and sort; the scene slots.
 */
import type { SceneDto, StreamDto } from '../../../src/shared/api/index.ts';
import { qualityBucket, type QualityFilter } from '../../../src/shared/quality/grade.ts';
import { MAX_SCENE_STREAMS } from '../../../src/shared/constants.ts';
import { selectSceneStreams } from '../../../src/shared/scenes/selection.ts';

export type StatusFilter = 'all' | 'active' | 'inactive';
export type StreamSort = 'quality' | 'name' | 'category' | 'recent';

export interface StreamQuery {
  search: string;
  quality: QualityFilter;
  status: StatusFilter;
  sort: StreamSort;
}

export const DEFAULT_QUERY: StreamQuery = { search: '', quality: 'all', status: 'all', sort: 'quality' };

/** Spec §5: search matches name, location name or category, case-insensitive. */
export function matchesSearch(stream: Pick<StreamDto, 'name' | 'location_name' | 'category'>, search: string): boolean {
  const needle = search.trim().toLowerCase();
  if (!needle) return true;
  return [stream.name, stream.location_name ?? '', stream.category].some((field) => field.toLowerCase().includes(needle));
}

const BY: Record<StreamSort, (a: StreamDto, b: StreamDto) => number> = {
  // Quality descending; never-analysed streams last.
  quality: (a, b) => (b.quality_score ?? -1) - (a.quality_score ?? -1) || a.name.localeCompare(b.name),
  name: (a, b) => a.name.localeCompare(b.name),
  category: (a, b) => a.category.localeCompare(b.category) || a.name.localeCompare(b.name),
  recent: (a, b) => b.created_at.localeCompare(a.created_at) || b.id - a.id,
};

export function queryStreams(streams: readonly StreamDto[], query: StreamQuery): StreamDto[] {
  return streams
    .filter((s) => matchesSearch(s, query.search))
    .filter((s) => query.quality === 'all' || qualityBucket(s.quality_score) === query.quality)
    .filter((s) => query.status === 'all' || (query.status === 'active') === s.active)
    .sort(BY[query.sort]);
}

/** Counts under the filters: found, analysed, pending (spec §2). */
export function streamCounts(streams: readonly StreamDto[]): { found: number; analyzed: number; pending: number } {
  const analyzed = streams.filter((s) => s.quality_score !== null).length;
  return { found: streams.length, analyzed, pending: streams.length - analyzed };
}

/** The analytics panel: by category, by grade bucket, a 10-point score histogram, and totals. */
export function streamAnalytics(streams: readonly StreamDto[]) {
  const byCategory: Record<string, number> = {};
  const byBucket: Record<string, number> = { A: 0, B: 0, C: 0, failed: 0, 'not-analyzed': 0 };
  const histogram = Array.from({ length: 10 }, () => 0);
  for (const s of streams) {
    byCategory[s.category] = (byCategory[s.category] ?? 0) + 1;
    const bucket = qualityBucket(s.quality_score);
    if (bucket) byBucket[bucket] = (byBucket[bucket] ?? 0) + 1;
    if (s.quality_score !== null) histogram[Math.min(9, Math.floor(s.quality_score / 10))]! += 1;
  }
  const active = streams.filter((s) => s.active).length;
  return { byCategory, byBucket, histogram, active, inactive: streams.length - active, ...streamCounts(streams) };
}

// ---- scene slots ---------------------------------------------------------------------------

/** Five slots, index i = position i+1, null = empty. */
export type Slots = (number | null)[];

export function slotsOf(scene: Pick<SceneDto, 'stream_ids'> | null): Slots {
  const slots: Slots = Array.from({ length: MAX_SCENE_STREAMS }, () => null);
  scene?.stream_ids.slice(0, MAX_SCENE_STREAMS).forEach((id, i) => (slots[i] = id));
  return slots;
}

/** Spec §5: add only while a slot is empty; the stream goes to the first empty slot. */
export function addToSlots(slots: Slots, streamId: number): Slots {
  const empty = slots.indexOf(null);
  if (empty === -1 || slots.includes(streamId)) return slots;
  return slots.map((id, i) => (i === empty ? streamId : id));
}

export function removeFromSlots(slots: Slots, index: number): Slots {
  return slots.map((id, i) => (i === index ? null : id));
}

/** Dragging slot `from` to `to` moves it there; the slots between shift by one (a sortable list). */
export function moveSlot(slots: Slots, from: number, to: number): Slots {
  if (from === to || from < 0 || to < 0 || from >= slots.length || to >= slots.length) return slots;
  const next = [...slots];
  const [moved] = next.splice(from, 1);
  next.splice(to, 0, moved ?? null);
  return next;
}

/** The streams a scene card shows (up to 4), by the scene's own selection rules (spec §4). */
export function previewStreams(scene: SceneDto, streams: readonly StreamDto[], count = 4): StreamDto[] {
  const placements = scene.stream_ids.flatMap((id, i) => (id === null ? [] : [{ stream_id: id, position: i + 1 }]));
  return selectSceneStreams(scene, streams, placements).slice(0, count);
}

/** Dropping an available stream on a slot: it takes that slot (replacing what was there). */
export function placeInSlot(slots: Slots, streamId: number, index: number): Slots {
  if (index < 0 || index >= slots.length) return slots;
  return slots.map((id, i) => (i === index ? streamId : id === streamId ? null : id));
}

export const filledCount = (slots: Slots) => slots.filter((id) => id !== null).length;

/** Spec §5: placed streams are hidden from the available list; search by name, location, category. */
export function availableStreams(streams: readonly StreamDto[], slots: Slots, search: string): StreamDto[] {
  const placed = new Set(slots.filter((id): id is number => id !== null));
  return streams.filter((s) => !placed.has(s.id) && matchesSearch(s, search));
}
