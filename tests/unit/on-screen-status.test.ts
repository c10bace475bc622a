/** What a tile says about its stream (src/shared/quality/on-screen-status.ts). */
import { describe, expect, it } from 'vitest';
import { awayFor, onScreenStatus } from '../../src/shared/quality/on-screen-status.ts';

describe('a tile is honest about its stream', () => {
  it.each([
    ['a live stream is LIVE', { health: 'live' as const }, 'LIVE', 'live'],
    ['a stream not analysed yet is LIVE', { health: 'unknown' as const }, 'LIVE', 'live'],
    ['an offline stream is OFFLINE', { health: 'offline' as const, health_since: '2026-11-24T10:00:00Z' }, 'OFFLINE', 'offline'],
    ['a frozen stream says FROZEN', { health: 'degraded' as const, health_faults: ['frozen' as const, 'slow' as const] }, 'FROZEN', 'degraded'],
    ['black before frozen: what a visitor notices first', { health: 'degraded' as const, health_faults: ['frozen' as const, 'black' as const] }, 'BLACK', 'degraded'],
    ['a degraded stream without a known fault says DEGRADED', { health: 'degraded' as const, health_faults: [] }, 'DEGRADED', 'degraded'],
  ])('%s', (_name, stream, label, tone) => {
    expect(onScreenStatus(stream)).toMatchObject({ label, tone });
  });

  it('says how long an offline stream has been away', () => {
    const since = '2026-11-24T10:00:00Z';
    const at = (iso: string) => Date.parse(iso);
    expect(awayFor(since, at('2026-11-24T10:00:30Z'))).toBe('just now');
    expect(awayFor(since, at('2026-11-24T10:05:00Z'))).toBe('for 5 min');
    expect(awayFor(since, at('2026-11-24T12:30:00Z'))).toBe('for 2 h');
    expect(awayFor(since, at('2026-11-27T12:00:00Z'))).toBe('for 3 days');
    expect(awayFor(null, at('2026-11-24T10:00:00Z'))).toBeNull();
  });
});
