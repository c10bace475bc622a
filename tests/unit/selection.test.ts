import { describe, expect, it } from 'vitest';
import { selectSceneStreams, type SelectableStream } from '../../src/shared/scenes/selection.ts';

const s = (id: number, created: string, score: number | null = null, active = true): SelectableStream => ({
  id,
  active,
  created_at: `2026-11-${created}T00:00:00Z`,
  quality_score: score,
});

const pool = [
  s(1, '01', 50),
  s(2, '02', 90),
  s(3, '03', null),
  s(4, '04', 70),
  s(5, '05', 90, false), // inactive, best score
  s(6, '06', null),
  s(7, '07', 10),
];

const ids = (list: { id: number }[]) => list.map((x) => x.id);

describe('selectSceneStreams (spec §4 scene selection)', () => {
  it.each([
    ['recent: newest active streams first', 'recent', 5, [], [7, 6, 4, 3, 2]],
    ['recent: limited to max_streams', 'recent', 2, [], [7, 6]],
    ['ranked: best quality score first, inactive skipped', 'ranked', 3, [], [2, 4, 1]],
    ['ranked: unanalysed streams come last, newest first among them', 'ranked', 7, [], [2, 4, 1, 7, 6, 3]],
    ['manual: placed streams in position order', 'manual', 5, [{ stream_id: 4, position: 2 }, { stream_id: 1, position: 1 }], [1, 4]],
    ['manual: inactive placed streams are left out', 'manual', 5, [{ stream_id: 5, position: 1 }, { stream_id: 2, position: 2 }], [2]],
    ['manual: slots with unknown streams are left out', 'manual', 5, [{ stream_id: 99, position: 1 }, { stream_id: 3, position: 3 }], [3]],
    ['unknown algorithm gives an empty list', 'random', 5, [], []],
  ])('%s', (_rule, algorithm, max, placements, expected) => {
    expect(ids(selectSceneStreams({ selection_algorithm: algorithm, max_streams: max }, pool, placements))).toEqual(expected);
  });

  it('numbers the chosen streams 1..n whatever their slot numbers', () => {
    const chosen = selectSceneStreams({ selection_algorithm: 'manual', max_streams: 5 }, pool, [
      { stream_id: 2, position: 2 },
      { stream_id: 4, position: 5 },
    ]);
    expect(chosen.map((c) => [c.id, c.position])).toEqual([[2, 1], [4, 2]]);
  });

  it('breaks ties in creation time by the higher id, so order is stable', () => {
    const tied = [s(10, '01'), s(12, '01'), s(11, '01')];
    expect(ids(selectSceneStreams({ selection_algorithm: 'recent', max_streams: 5 }, tied, []))).toEqual([12, 11, 10]);
  });

  it('does not mutate its input', () => {
    const copy = pool.map((p) => ({ ...p }));
    selectSceneStreams({ selection_algorithm: 'ranked', max_streams: 5 }, pool, []);
    expect(pool).toEqual(copy);
  });
});
