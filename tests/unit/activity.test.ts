/** Activity against a camera's normal (src/shared/quality/activity.ts). */
import { describe, expect, it } from 'vitest';
import { describeActivity, judgeActivity, localHour, normalOf, OWN_MIN } from '../../src/shared/quality/activity.ts';

describe('judgeActivity', () => {
  const quiet = [0.2, 0.3, 0.25, 0.3, 0.2, 0.35];
  const busy = [8, 9, 7.5, 8.5, 9.5, 8];

  it('judges a camera against its own normal once it has enough history', () => {
    expect(judgeActivity(4, quiet, busy)).toEqual({ ratio: 8, basis: 'own', eventful: true });
  });

  it('a waterfall that always moves is not eventful for moving as usual', () => {
    expect(judgeActivity(8.4, busy, quiet)).toMatchObject({ basis: 'own', eventful: false });
    expect(judgeActivity(8.4, busy, quiet).ratio).toBeCloseTo(1, 1);
  });

  it("until then, against its category's normal, and says so", () => {
    expect(judgeActivity(4, quiet.slice(0, OWN_MIN - 1), quiet)).toMatchObject({ basis: 'category', eventful: true });
  });

  it('says nothing without a normal, nor for an unknown activity', () => {
    expect(judgeActivity(4, [], [1])).toEqual({ ratio: null, basis: null, eventful: false });
    expect(judgeActivity(null, quiet, quiet)).toEqual({ ratio: null, basis: null, eventful: false });
  });

  it('takes a normal below the floor as the floor (a ratio over nothing means nothing)', () => {
    expect(judgeActivity(1, [0, 0, 0, 0, 0, 0], []).ratio).toBe(2);
  });
});

describe('normalOf', () => {
  it('is the median and the median absolute deviation', () => {
    expect(normalOf([1, 2, 3, 4, 100])).toEqual({ median: 3, spread: 1 });
  });
});

describe('describeActivity', () => {
  it.each([
    [4, 'own', 'activity 4× its usual at this hour'],
    [12.4, 'own', 'activity 12× its usual at this hour'],
    [2.5, 'category', "activity 2.5× its category's usual at this hour"],
    [1.1, 'own', 'activity as its usual at this hour'],
    [0.5, 'own', 'quieter than its usual at this hour (0.5×)'],
  ] as const)('%s (%s) → %s', (ratio, basis, words) => {
    expect(describeActivity(ratio, basis)).toBe(words);
  });
});

describe('localHour', () => {
  const instant = Date.parse('2026-01-15T12:30:00Z');
  it('reads the time zone', () => expect(localHour(instant, 'Asia/Tokyo', null)).toBe(21));
  it('falls back to the longitude', () => expect(localHour(instant, null, -75)).toBe(7));
  it('and to UTC', () => expect(localHour(instant, 'Not/AZone', null)).toBe(12));
});
