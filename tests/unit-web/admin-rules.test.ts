/** The console's rules, one row per rule of spec §5 and §9: the table's filters as the server's query, grades, the scene slots. */
import { describe, expect, it } from 'vitest';
import { adminScoreColor, gradeColor, qualityGrade } from '../../src/shared/quality/grade.ts';
import { addToSlots, filledCount, moveSlot, placedIds, placeInSlot, removeFromSlots, slotsOf } from '../../web/features/admin/scenes/slots.ts';
import { DEFAULT_FILTERS, filterQuery, pageQuery, type StreamFilters } from '../../web/features/admin/streams/stream-filters.ts';
import { clockText, droppedFramesText, flipText } from '../../web/features/admin/format.ts';

describe('the stream table asks the server (spec §5: search, filters, sort are the server\'s one rule)', () => {
  it.each([
    ['nothing set: every stream, best quality first', {}, { sort: 'quality', limit: 50 }],
    ['a search, trimmed', { search: '  katmai ' }, { q: 'katmai', sort: 'quality', limit: 50 }],
    ['a blank search is no search', { search: '   ' }, { sort: 'quality', limit: 50 }],
    ['a grade bucket', { grade: 'failed' }, { grade: 'failed', sort: 'quality', limit: 50 }],
    ['a category', { category: 'volcano' }, { category: 'volcano', sort: 'quality', limit: 50 }],
    ['active only', { status: 'active' }, { active: 'true', sort: 'quality', limit: 50 }],
    ['inactive only', { status: 'inactive' }, { active: 'false', sort: 'quality', limit: 50 }],
    ['recent: newest first', { sort: 'newest' }, { sort: 'newest', limit: 50 }],
  ] as [string, Partial<StreamFilters>, object][])('%s', (_rule, filters, query) => {
    expect(pageQuery({ ...DEFAULT_FILTERS, ...filters })).toEqual(query);
  });

  it('counts under the same filters, without sort or paging', () => {
    expect(filterQuery({ ...DEFAULT_FILTERS, search: 'bear', grade: 'A', status: 'active', sort: 'name' })).toEqual({ q: 'bear', grade: 'A', active: 'true' });
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
  it('names the placed streams (hidden from the available list)', () => {
    expect(placedIds([4, null, 9, null, null])).toEqual([4, 9]);
  });
});

describe("a screen's last flip, as its row in the Screens tab says it", () => {
  it.each([
    ['on time', { render_ms: 3, late_ms: 6 }, 'Last flip rendered in 3 ms · shown on time', false],
    ['a frame late is on time still', { render_ms: 9, late_ms: 17 }, 'Last flip rendered in 9 ms · shown on time', false],
    ['late: marked', { render_ms: 41, late_ms: 58 }, 'Last flip rendered in 41 ms · shown 58 ms late', true],
    ['early (a clock estimate off)', { render_ms: 4, late_ms: -30 }, 'Last flip rendered in 4 ms · shown 30 ms early', false],
    ['no clock estimate yet', { render_ms: 5, late_ms: null }, 'Last flip rendered in 5 ms', false],
  ])('%s', (_rule, flip, text, late) => {
    expect(flipText(flip)).toEqual({ text, late });
  });
});

describe("a screen's clock, as its row in the Screens tab says it", () => {
  it.each([
    ['a clock that is right', { offset_ms: 2, error_ms: 0.4 }, 'Own clock right · in step to ±0.4 ms'],
    ['a screen behind the server (positive offset)', { offset_ms: 1_850, error_ms: 3.25 }, 'Own clock 1.9 s behind · in step to ±3.3 ms'],
    ['a screen ahead of it', { offset_ms: -420, error_ms: 12.6 }, 'Own clock 420 ms ahead · in step to ±13 ms'],
  ])('%s', (_rule, clock, text) => {
    expect(clockText(clock)).toBe(text);
  });
});

describe("what a screen's video players dropped, as its row in the Screens tab says it", () => {
  const report = (...streams: [number, number, number][]) => ({ window_ms: 30_200, streams: streams.map(([stream_id, frames, dropped]) => ({ stream_id, frames, dropped })) });
  it.each([
    ['nothing dropped', report([1, 750, 0], [2, 720, 0]), 'Video dropped no frames in the last 30 s', false, []],
    ['a few, under the mark', report([1, 1000, 4], [2, 1000, 0]), 'Video dropped 0.2 % of frames in the last 30 s', false, [[1, '0.4 % of frames dropped']]],
    ['5 % is not yet struggling', report([1, 1000, 50]), 'Video dropped 5 % of frames in the last 30 s', false, [[1, '5 % of frames dropped']]],
    ['past 5 %: marked', report([1, 500, 100], [2, 500, 0]), 'Video dropped 10 % of frames in the last 30 s', true, [[1, '20 % of frames dropped']]],
  ])('%s', (_rule, frames, text, struggling, byStream) => {
    expect(droppedFramesText(frames)).toEqual({ text, struggling, byStream: new Map(byStream as [number, string][]) });
  });
});
