import { describe, expect, it } from 'vitest';
import { formatCoordinates, isValidCoordinates, isValidTimezone } from '../../src/shared/streams/location.ts';

describe('isValidCoordinates (spec §5)', () => {
  it.each([
    ['accepts the origin', 0, 0, true],
    ['accepts the poles and the date line', 90, -180, true],
    ['accepts the other corner', -90, 180, true],
    ['refuses latitude above 90', 90.01, 0, false],
    ['refuses latitude below -90', -91, 0, false],
    ['refuses longitude above 180', 0, 180.5, false],
    ['refuses longitude below -180', 0, -181, false],
    ['refuses NaN', NaN, 0, false],
    ['refuses infinity', 0, Infinity, false],
  ])('%s', (_rule, lat, lon, valid) => {
    expect(isValidCoordinates(lat, lon)).toBe(valid);
  });
});

describe('isValidTimezone', () => {
  it.each([
    ['IANA zone', 'Africa/Windhoek', true],
    ['UTC', 'UTC', true],
    ['three-part zone', 'America/Argentina/Buenos_Aires', true],
    ['unknown zone', 'Mars/Olympus_Mons', false],
    ['injection text', "UTC'; drop table streams;--", false],
    ['empty', '', false],
  ])('%s', (_rule, zone, valid) => {
    expect(isValidTimezone(zone)).toBe(valid);
  });
});

describe('formatCoordinates', () => {
  it('shows latitude and longitude to 2 decimals', () => {
    expect(formatCoordinates(58.5512, -155.7849)).toBe('58.55, -155.78');
  });
});
