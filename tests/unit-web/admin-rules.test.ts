/** The console's rules, one row per rule of spec §4, §5 and §9. */
import { describe, expect, it } from 'vitest';
import type { SceneDto, StreamDto } from '../../src/shared/api/index.ts';
import { adminScoreColor, gradeColor, qualityGrade } from '../../src/shared/quality/grade.ts';
import {
  addToSlots,
  availableStreams,
  filledCount,
  matchesSearch,
  moveSlot,
  placeInSlot,
  previewStreams,
  queryStreams,
  removeFromSlots,
  slotsOf,
  streamAnalytics,
  streamCounts,
  DEFAULT_QUERY,
  type StreamQuery,
} from '../../web/features/admin/rules.ts';

let nextId = 1;
function stream(overrides: Partial<StreamDto> = {}): StreamDto {
  const id = nextId++;
  return {
    id,
    name: `Cam ${id}`,
    url: `https://example.org/${id}.m3u8`,
    fallback_url: null,
    description: null,
    category: 'nature',
    quality: 'hd',
    active: true,
    created_at: new Date(Date.UTC(2026, 0, id)).toISOString(),
    updated_at: new Date(Date.UTC(2026, 0, id)).toISOString(),
    quality_score: null,
    quality_assessed_at: null,
    quality_confidence: null,
    location_name: null,
    latitude: null,
    longitude: null,
    timezone: null,
    health: 'unknown',
    auto_score: null,
    human_score: null,
    human_confidence: null,
    human_count: 0,
    request_headers: null,
    inactive_reason: null,
    ...overrides,
  };
}

const pool = [
  stream({ name: 'Bear River', category: 'wildlife', quality_score: 92, location_name: 'Katmai' }),
  stream({ name: 'Reef', category: 'ocean', quality_score: 65 }),
  stream({ name: 'Lava', category: 'volcano', quality_score: 45, active: false }),
  stream({ name: 'Misty Falls', category: 'waterfall', quality_score: 12 }),
  stream({ name: 'Aurora', category: 'nature', quality_score: null, location_name: 'Tromsø' }),
];
const names = (list: StreamDto[]) => list.map((s) => s.name);
const query = (q: Partial<StreamQuery>) => names(queryStreams(pool, { ...DEFAULT_QUERY, ...q }));

describe('stream filters (spec §5)', () => {
  it.each([
    ['A is 80 and above', { quality: 'A' }, ['Bear River']],
    ['B is 60 to 79', { quality: 'B' }, ['Reef']],
    ['C is 40 to 59', { quality: 'C' }, ['Lava']],
    ['Failed is below 40 (above 0)', { quality: 'failed' }, ['Misty Falls']],
    ['Not analyzed has no score', { quality: 'not-analyzed' }, ['Aurora']],
    ['status active', { status: 'active', sort: 'name' }, ['Aurora', 'Bear River', 'Misty Falls', 'Reef']],
    ['status inactive', { status: 'inactive' }, ['Lava']],
    ['search by name, any case', { search: 'REEF' }, ['Reef']],
    ['search by location', { search: 'katmai' }, ['Bear River']],
    ['search by category', { search: 'volcano' }, ['Lava']],
  ] as [string, Partial<StreamQuery>, string[]][])('%s', (_rule, q, expected) => {
    expect(query(q)).toEqual(expected);
  });
});

describe('stream sort (spec §5)', () => {
  it.each([
    ['quality descending, unanalysed last', 'quality', ['Bear River', 'Reef', 'Lava', 'Misty Falls', 'Aurora']],
    ['name', 'name', ['Aurora', 'Bear River', 'Lava', 'Misty Falls', 'Reef']],
    ['category', 'category', ['Aurora', 'Reef', 'Lava', 'Misty Falls', 'Bear River']],
    ['recent: newest first', 'recent', ['Aurora', 'Misty Falls', 'Lava', 'Reef', 'Bear River']],
  ] as [string, StreamQuery['sort'], string[]][])('%s', (_rule, sort, expected) => {
    expect(query({ sort })).toEqual(expected);
  });
});

describe('counts and analytics', () => {
  it('counts found, analyzed and pending, and buckets the scores', () => {
    expect(streamCounts(pool)).toEqual({ found: 5, analyzed: 4, pending: 1 });
    const a = streamAnalytics(pool);
    expect(a.byBucket).toEqual({ A: 1, B: 1, C: 1, failed: 1, 'not-analyzed': 1 });
    expect(a.histogram).toEqual([0, 1, 0, 0, 1, 0, 1, 0, 0, 1]);
    expect([a.active, a.inactive]).toEqual([4, 1]);
    expect(a.byCategory).toEqual({ wildlife: 1, ocean: 1, volcano: 1, waterfall: 1, nature: 1 });
  });
  it('matches search on name, location name or category only', () => {
    expect(matchesSearch({ name: 'X', location_name: null, category: 'ocean' }, 'oce')).toBe(true);
    expect(matchesSearch({ name: 'X', location_name: null, category: 'ocean' }, 'https')).toBe(false);
  });
});

describe('grade and colour by score (spec §9)', () => {
  it.each([
    [95, 'A+', 'green', 'green'],
    [90, 'A', 'green', 'green'],
    [85, 'A-', 'blue', 'green'],
    [80, 'B+', 'blue', 'green'],
    [70, 'B-', 'blue', 'yellow'],
    [60, 'C', 'yellow', 'yellow'],
    [50, 'D+', 'yellow', 'orange'],
    [40, 'D-', 'orange', 'orange'],
    [39, 'F', 'red', 'red'],
    [null, '?', 'gray', 'gray'],
  ] as [number | null, string, string, string][])('%s → %s, %s badge, %s admin colour', (score, grade, badge, admin) => {
    expect(qualityGrade(score)).toBe(grade);
    expect(gradeColor(score)).toBe(badge);
    expect(adminScoreColor(score)).toBe(admin);
  });
});

describe('scene slots (spec §5)', () => {
  const empty = slotsOf(null);
  it('has exactly five positions', () => {
    expect(empty).toEqual([null, null, null, null, null]);
    expect(slotsOf({ stream_ids: [1, null, 3] })).toEqual([1, null, 3, null, null]);
  });
  it('adds to the first empty slot, only while one is empty, never twice', () => {
    let slots = addToSlots(empty, 7);
    expect(slots).toEqual([7, null, null, null, null]);
    expect(addToSlots(slots, 7)).toBe(slots);
    slots = [1, 2, null, 4, 5];
    expect(addToSlots(slots, 9)).toEqual([1, 2, 9, 4, 5]);
    const full = [1, 2, 3, 4, 5];
    expect(addToSlots(full, 9)).toBe(full);
    expect(filledCount(full)).toBe(5);
  });
  it('removes with X, leaving the slot empty', () => {
    expect(removeFromSlots([1, 2, 3, null, null], 1)).toEqual([1, null, 3, null, null]);
  });
  it('reorders by dragging (the others shift)', () => {
    expect(moveSlot([1, 2, 3, null, null], 0, 2)).toEqual([2, 3, 1, null, null]);
    expect(moveSlot([1, 2, 3, null, null], 2, 0)).toEqual([3, 1, 2, null, null]);
    expect(moveSlot([1, 2, 3, null, null], 0, 9)).toEqual([1, 2, 3, null, null]);
  });
  it('drops an available stream on a slot (moving it if it was placed)', () => {
    expect(placeInSlot([1, null, null, null, null], 8, 3)).toEqual([1, null, null, 8, null]);
    expect(placeInSlot([1, 8, null, null, null], 8, 0)).toEqual([8, null, null, null, null]);
  });
  it('hides placed streams from the available list, which searches name, location and category', () => {
    const slots = [pool[0]!.id, null, null, null, null];
    expect(names(availableStreams(pool, slots, ''))).toEqual(['Reef', 'Lava', 'Misty Falls', 'Aurora']);
    expect(names(availableStreams(pool, slots, 'tromsø'))).toEqual(['Aurora']);
    expect(names(availableStreams(pool, slots, 'wildlife'))).toEqual([]);
  });
});

describe('scene card previews', () => {
  const scene = (overrides: Partial<SceneDto>): SceneDto => ({
    id: 1, slug: 's', name: 'S', description: null, prompt: null, selection_algorithm: 'manual', max_streams: 5, layout_type: 'grid',
    active: true, created_at: '', updated_at: '', stream_ids: [], is_default: false, ...overrides,
  });
  it('shows up to four streams by the scene\'s own rule', () => {
    expect(names(previewStreams(scene({ selection_algorithm: 'ranked' }), pool))).toEqual(['Bear River', 'Reef', 'Misty Falls', 'Aurora']);
    expect(names(previewStreams(scene({ stream_ids: [pool[3]!.id, null, pool[2]!.id, pool[1]!.id] }), pool))).toEqual(['Misty Falls', 'Reef']);
  });
});
