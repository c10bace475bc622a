/** Steering a player toward the shared moment (web/components/Player/live-sync.ts), one row per rule. */
import { describe, expect, it } from 'vitest';
import { loopErrorMs, programErrorMs, SYNC_MAX_RATE_DELTA, syncStep, type SyncStep } from '../../web/components/Player/live-sync.ts';

describe('syncStep', () => {
  it.each([
    ['leaves a player within the deadband at normal speed', 3, { kind: 'rate', rate: 1 }],
    ['slows a player that shows a later moment', 100, { kind: 'rate', rate: 0.95 }],
    ['speeds up one that is behind', -40, { kind: 'rate', rate: 1.02 }],
    ['never moves the rate by more than the cap', 450, { kind: 'rate', rate: 1 - SYNC_MAX_RATE_DELTA }],
    ['seeks back over a large lead', 2_000, { kind: 'seek', bySeconds: -2 }],
    ['seeks forward over a large lag', -750, { kind: 'seek', bySeconds: 0.75 }],
    ['does nothing with an error it cannot know', Number.NaN, { kind: 'rate', rate: 1 }],
  ] as [string, number, SyncStep][])('%s', (_rule, error, step) => {
    const got = syncStep(error);
    expect(got.kind).toBe(step.kind);
    if (got.kind === 'rate' && step.kind === 'rate') expect(got.rate).toBeCloseTo(step.rate, 9);
    if (got.kind === 'seek' && step.kind === 'seek') expect(got.bySeconds).toBeCloseTo(step.bySeconds, 9);
  });
});

describe('the targets', () => {
  it.each([
    ['a loop on target', 2.5, 8, 1_000_002_500, 0],
    ['a loop 100 ms ahead', 2.6, 8, 1_000_002_500, 100],
    ['the nearer way round the end of the loop', 7.9, 8, 1_000_000_100, -200],
  ])('%s', (_rule, currentTime, duration, serverNow, error) => {
    // 1_000_000_000 ms is a multiple of 8 s: the loop's position is what follows it.
    expect(loopErrorMs(currentTime, duration, serverNow)).toBeCloseTo(error, 6);
  });

  it('measures a live stream against the program time the shared latency behind the server', () => {
    expect(programErrorMs(1_000_000 - 4_000 + 30, 1_000_000, 4_000)).toBe(30);
  });
});
