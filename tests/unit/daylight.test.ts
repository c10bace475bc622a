/** A scene that follows the sun, over fixed instants and places (src/shared/scenes/daylight.ts, selection.ts). */
import { describe, expect, it } from 'vitest';
import { inDaylight, nextCrossing } from '../../src/shared/scenes/daylight.ts';
import { selectSceneStreams } from '../../src/shared/scenes/selection.ts';

const at = (iso: string) => Date.parse(iso);
const GREENWICH_EQUATOR = { latitude: 0, longitude: 0 };
const SYDNEY = { latitude: -33.87, longitude: 151.21 };
const TROMSO = { latitude: 69.65, longitude: 18.96 };
const NOWHERE = { latitude: null, longitude: null };

describe('where the sun is up', () => {
  it.each([
    ['the equator at noon UTC', GREENWICH_EQUATOR, '2026-06-21T12:00:00Z', true],
    ['the equator at midnight UTC', GREENWICH_EQUATOR, '2026-06-21T00:00:00Z', false],
    ['Sydney at noon in its winter (southern hemisphere)', SYDNEY, '2026-06-21T02:00:00Z', true],
    ['Sydney at 22:00', SYDNEY, '2026-06-21T12:00:00Z', false],
    ['Tromsø at 02:00 in June (polar day)', TROMSO, '2026-06-21T00:00:00Z', true],
    ['Tromsø at noon in December (polar night)', TROMSO, '2026-12-21T11:00:00Z', false],
  ])('%s', (_name, place, instant, up) => {
    expect(inDaylight(place, at(instant))).toBe(up);
  });

  it('cannot say without coordinates', () => {
    expect(inDaylight(NOWHERE, at('2026-06-21T12:00:00Z'))).toBeNull();
  });
});

describe('the next sunrise or sunset', () => {
  it('on the equator at noon, the sunset about six hours later', () => {
    const next = nextCrossing([GREENWICH_EQUATOR], at('2026-06-21T12:00:00Z'))!;
    expect(next).toBeGreaterThan(at('2026-06-21T17:45:00Z'));
    expect(next).toBeLessThan(at('2026-06-21T18:30:00Z'));
  });

  it('the earliest among the places', () => {
    const equator = nextCrossing([GREENWICH_EQUATOR], at('2026-06-21T12:00:00Z'))!;
    const sydney = nextCrossing([SYDNEY], at('2026-06-21T12:00:00Z'))!; // its sunrise, about 21:00 UTC
    expect(nextCrossing([SYDNEY, GREENWICH_EQUATOR], at('2026-06-21T12:00:00Z'))).toBe(Math.min(equator, sydney));
    expect(sydney).toBeGreaterThan(equator);
  });

  it('none in polar day or polar night, nor without coordinates', () => {
    expect(nextCrossing([TROMSO], at('2026-06-21T00:00:00Z'))).toBeNull();
    expect(nextCrossing([TROMSO], at('2026-12-21T11:00:00Z'))).toBeNull();
    expect(nextCrossing([NOWHERE], at('2026-06-21T00:00:00Z'))).toBeNull();
  });
});

describe('a daylight scene chooses', () => {
  const stream = (id: number, place: { latitude: number | null; longitude: number | null }, quality_score: number, health = 'live') => ({ id, active: true, created_at: '2026-01-01T00:00:00Z', quality_score, health, ...place });
  const pool = [stream(1, GREENWICH_EQUATOR, 50), stream(2, SYDNEY, 90), stream(3, TROMSO, 70), stream(4, NOWHERE, 99), stream(5, GREENWICH_EQUATOR, 95, 'offline')];
  const scene = { selection_algorithm: 'daylight', max_streams: 5 };

  it('the healthy streams in daylight, best first; none without coordinates, none offline', () => {
    expect(selectSceneStreams(scene, pool, [], at('2026-06-21T12:00:00Z')).map((s) => s.id)).toEqual([3, 1]);
    expect(selectSceneStreams(scene, pool, [], at('2026-06-21T02:00:00Z')).map((s) => s.id)).toEqual([2, 3]);
  });

  it('where it is night everywhere, the best that are not degraded (dark)', () => {
    const night = [stream(1, GREENWICH_EQUATOR, 50), stream(3, TROMSO, 70, 'degraded')];
    expect(selectSceneStreams(scene, night, [], at('2026-12-21T23:00:00Z')).map((s) => s.id)).toEqual([1]);
  });

  it('up to max_streams', () => {
    expect(selectSceneStreams({ ...scene, max_streams: 1 }, pool, [], at('2026-06-21T12:00:00Z')).map((s) => s.id)).toEqual([3]);
  });
});
