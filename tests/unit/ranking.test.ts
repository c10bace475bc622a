/** The ranking's rules (src/shared/scenes/ranking.ts): the score and its words, and when a tile may change. */
import { describe, expect, it } from 'vitest';
import { choosePicks, rankAll, rankNow, type Pick, type RankedStream } from '../../src/shared/scenes/ranking.ts';

const NOON_LONDON = Date.parse('2026-06-21T12:00:00Z');
const cam = (id: number, over: Partial<RankedStream> = {}): RankedStream => ({ id, name: `Cam ${id}`, active: true, health: 'live', quality_score: 70, activity_ratio: null, activity_basis: null, ...over });

describe('rankNow', () => {
  it.each([
    ['an inactive stream', cam(1, { active: false })],
    ['an offline stream', cam(1, { health: 'offline' })],
    ['a looped recording', cam(1, { looped: { kind: 'replay' } })],
  ])('leaves out %s', (_what, stream) => {
    expect(rankNow(stream, NOON_LONDON)).toBeNull();
  });

  it('keeps a looped recording an admin marked fine', () => {
    expect(rankNow(cam(1, { looped: { kind: 'replay' }, recording_ok: true }), NOON_LONDON)).not.toBeNull();
  });

  it.each([
    ['quality alone, activity unknown', cam(1), 70, 'activity not yet known against a normal'],
    ['4× its usual at this hour', cam(1, { activity_ratio: 4, activity_basis: 'own' }), 94, 'activity 4× its usual at this hour'],
    ['capped at +30', cam(1, { activity_ratio: 100, activity_basis: 'own' }), 100, 'activity 100× its usual at this hour'],
    ['quieter than its category', cam(1, { activity_ratio: 0.25, activity_basis: 'category' }), 60, "quieter than its category's usual at this hour (0.3×)"],
    ['daylight at the camera', cam(1, { latitude: 51.5, longitude: -0.1 }), 75, 'daylight'],
    ['night at the camera', cam(1, { latitude: -33.9, longitude: 151.2 }), 45, 'night at the camera'],
    ['degraded', cam(1, { health: 'degraded' }), 50, 'degraded'],
  ])('%s', (_what, stream, score, words) => {
    const ranked = rankNow(stream, NOON_LONDON)!;
    expect(ranked.score).toBe(score);
    expect(ranked.why).toContain(words);
  });

  it('orders by score, the lower id first on a tie', () => {
    expect(rankAll([cam(3), cam(2, { activity_ratio: 4, activity_basis: 'own' }), cam(1)], NOON_LONDON).map((r) => r.id)).toEqual([2, 1, 3]);
  });
});

describe('choosePicks', () => {
  const rules = { minOnScreenMs: 60_000, margin: 10 };
  const pick = (position: number, streamId: number, since: number): Pick => ({ position, streamId, since, reason: 'earlier' });
  const ranked = (...scores: [number, number][]) => scores.map(([id, score]) => ({ id, name: `Cam ${id}`, score, why: `why ${id}` }));

  it('fills empty tiles with the best, saying why', () => {
    const { picks, changes } = choosePicks([], ranked([1, 90], [2, 80], [3, 70]), 2, 0, rules);
    expect(picks.map((p) => p.streamId)).toEqual([1, 2]);
    expect(changes).toEqual([
      { position: 1, from: null, to: 1, reason: 'Cam 1: why 1' },
      { position: 2, from: null, to: 2, reason: 'Cam 2: why 2' },
    ]);
  });

  it('keeps a tile that has not been on screen long enough, however good the challenger', () => {
    const { picks, changes } = choosePicks([pick(1, 1, 0)], ranked([2, 99], [1, 10]), 1, 59_999, rules);
    expect(picks.map((p) => p.streamId)).toEqual([1]);
    expect(changes).toEqual([]);
  });

  it('keeps a tile against a challenger that is better by less than the margin', () => {
    expect(choosePicks([pick(1, 1, 0)], ranked([2, 59.9], [1, 50]), 1, 120_000, rules).changes).toEqual([]);
  });

  it('gives the weakest tile to a clearly better challenger once it has been on screen long enough', () => {
    const { picks, changes } = choosePicks([pick(1, 1, 0), pick(2, 2, 0)], ranked([3, 80], [1, 75], [2, 40]), 2, 60_000, rules);
    expect(picks.map((p) => [p.position, p.streamId])).toEqual([[1, 1], [2, 3]]);
    expect(changes).toEqual([{ position: 2, from: 2, to: 3, reason: 'Cam 3 in place of Cam 2: why 3 (80 against 40)' }]);
    expect(picks[1]!.since).toBe(60_000);
  });

  it('replaces a tile whose camera is no candidate any more at once', () => {
    const { picks, changes } = choosePicks([pick(1, 1, 0)], ranked([2, 40]), 1, 1, rules);
    expect(picks.map((p) => p.streamId)).toEqual([2]);
    expect(changes[0]).toMatchObject({ from: 1, to: 2 });
    expect(changes[0]!.reason).toContain('no longer a candidate');
  });
});
