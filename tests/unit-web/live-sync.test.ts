/** Steering a player toward the shared moment (web/components/Player/live-sync.ts), one row per rule. */
import { describe, expect, it } from 'vitest';
import { freshSeekBudget, keyframeStart, learnSeekLead, loopErrorMs, programErrorMs, programStartPosition, SEEK_LEAD_MAX_MS, SEEK_SPACING_MAX_MS, SEEK_SPACING_MS, seekTarget, spendSeek, START_PUBLISH_MARGIN_S, START_SNAP_MAX_S, SYNC_CATCH_UP_RATE_DELTA, SYNC_MAX_RATE_DELTA, syncStep, type SeekBudget, type SyncStep } from '../../web/components/Player/live-sync.ts';
import { describeSkew } from '../../web/features/admin/quality/camera-clock.ts';
import { CAMERA_CLOCK_TOLERANCE_MS, cameraSkewHint, planProgramSync, syncLatencyMs } from '../../src/shared/streams/playback.ts';

describe('syncStep', () => {
  it.each([
    ['leaves a player within the deadband at normal speed', 3, { kind: 'rate', rate: 1 }],
    ['slows a player that shows a later moment', 100, { kind: 'rate', rate: 0.95 }],
    ['speeds up one that is behind', -40, { kind: 'rate', rate: 1.02 }],
    ['never moves the rate by more than the cap', 450, { kind: 'rate', rate: 1 - SYNC_MAX_RATE_DELTA }],
    ['catches up faster on a lag of a new tile, still by rate', -750, { kind: 'rate', rate: 1 + SYNC_CATCH_UP_RATE_DELTA }],
    ['holds back one ahead by up to a second and more the same way', 1_999, { kind: 'rate', rate: 1 - SYNC_CATCH_UP_RATE_DELTA }],
    ['seeks back over a large lead', 2_000, { kind: 'seek', bySeconds: -2 }],
    ['seeks forward over a large lag', -3_250, { kind: 'seek', bySeconds: 3.25 }],
    ['does nothing with an error it cannot know', Number.NaN, { kind: 'rate', rate: 1 }],
  ] as [string, number, SyncStep][])('%s', (_rule, error, step) => {
    const got = syncStep(error);
    expect(got.kind).toBe(step.kind);
    if (got.kind === 'rate' && step.kind === 'rate') expect(got.rate).toBeCloseTo(step.rate, 9);
    if (got.kind === 'seek' && step.kind === 'seek') expect(got.bySeconds).toBeCloseTo(step.bySeconds, 9);
  });

  // A screen that drops frames (its renditions stepped down): no seek, no fast catch-up.
  it.each([
    ['closes a large lag by the narrow rate, never a seek', -3_250, 1 + SYNC_MAX_RATE_DELTA],
    ['holds back a large lead the same way', 2_500, 1 - SYNC_MAX_RATE_DELTA],
    ['catches a new tile up no faster than the narrow rate', -750, 1 + SYNC_MAX_RATE_DELTA],
    ['steers a small error as any screen does', 100, 0.95],
  ])('on a screen that cannot keep up, %s', (_rule, error, rate) => {
    const got = syncStep(error, true);
    expect(got.kind).toBe('rate');
    if (got.kind === 'rate') expect(got.rate).toBeCloseTo(rate, 9);
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

describe("a camera's clock against the window it serves", () => {
  // A 3-segment window of 2 s segments: what the walls played (latency 5 s, not 7).
  const window = { windowMs: 6_000, targetDurationMs: 2_000 };
  const latency = syncLatencyMs(2, 6);

  it('a latency that does not fit the window shrinks to what it allows, alike for every wall', () => {
    expect(latency).toBe(5_000);
    expect(planProgramSync({ ...window, skewMs: -300 }, 7_000)).toEqual({ kind: 'follow', latencyMs: 5_000 });
    expect(syncLatencyMs(2, 10)).toBe(7_000);
    expect(syncLatencyMs(2, 4)).toBeNull(); // no room to play behind: the live edge
  });

  it.each([
    ['right, the freshest load just after a segment appeared', -100, 'follow'],
    ['right, every load late in a segment', -1_900, 'follow'],
    ['2 s fast: the moment just before the window, still followed', 1_500, 'follow'],
    ['6 s fast', 6_000, 'edge'],
    ['10 s slow', -10_000, 'edge'],
    ['an hour fast', 3_600_000, 'edge'],
    ['an hour slow', -3_600_000, 'edge'],
  ])('a camera %s', (_name, skewMs, kind) => {
    expect(planProgramSync({ ...window, skewMs }, latency).kind).toBe(kind);
  });

  it('follows the live edge of a window too short to play behind, and says by how much the camera is off', () => {
    expect(planProgramSync({ windowMs: 4_000, targetDurationMs: 2_000, skewMs: 42 }, 7_000)).toEqual({ kind: 'edge', skewMs: 42 });
    expect(planProgramSync({ ...window, skewMs: 0 }, null)).toEqual({ kind: 'edge', skewMs: 0 });
  });

  it('does not flap at the limit: back to following only well inside it', () => {
    // 6 s window, 5 s latency: the moment leaves the window when the camera is more than 1 s fast, plus the tolerance.
    const limit = 1_000 + CAMERA_CLOCK_TOLERANCE_MS;
    expect(planProgramSync({ ...window, skewMs: limit - 100 }, latency).kind).toBe('follow');
    expect(planProgramSync({ ...window, skewMs: limit + 100 }, latency).kind).toBe('edge');
    expect(planProgramSync({ ...window, skewMs: limit - 100 }, latency, true).kind).toBe('edge');
    expect(planProgramSync({ ...window, skewMs: 1_000 + CAMERA_CLOCK_TOLERANCE_MS / 2 - 100 }, latency, true).kind).toBe('follow');
  });

  it('the analysis flags a camera screens cannot follow, in whole seconds, and no other', () => {
    expect(cameraSkewHint({ ...window, skewMs: 3_600_400 }, latency)).toBe(3_600_000);
    expect(cameraSkewHint({ ...window, skewMs: -10_300 }, latency)).toBe(-10_000);
    expect(cameraSkewHint({ ...window, skewMs: -800 }, latency)).toBeNull();
    expect(cameraSkewHint({ windowMs: 4_000, targetDurationMs: 2_000, skewMs: 0 }, syncLatencyMs(2, 4))).toBeNull(); // a short window is no fault of the clock
  });

  it('never seeks where the player has nothing to play', () => {
    expect(seekTarget(12, [[10, 16]])).toBe(12);
    expect(seekTarget(3, [[10, 16]])).toBeNull();
    expect(seekTarget(17, [[10, 16]])).toBeNull();
    expect(seekTarget(30, [[10, 16], [28, 31]])).toBe(30);
    expect(seekTarget(1, [])).toBeNull();
  });
});

describe("the console's word for a camera's clock", () => {
  it.each([
    [3_600_000, '1 h 0 min fast'],
    [3_599_000, '1 h 0 min fast'],
    [-10_000, '10 s slow'],
    [125_000, '2 min fast'],
    [-5_430_000, '1 h 31 min slow'],
  ])('%i ms: %s', (ms, said) => expect(describeSkew(ms)).toBe(said));
});

describe('seeks on a screen that cannot keep up', () => {
  /** Asks at each of `times` (ms); what was allowed, and the budget after. */
  const ask = (times: number[], budget: SeekBudget = freshSeekBudget()) => {
    const allowed: boolean[] = [];
    for (const t of times) {
      const spent = spendSeek(budget, t);
      allowed.push(spent.allowed);
      budget = spent.budget;
    }
    return { allowed, budget };
  };

  it('seeks at once the first time, then not again within the spacing', () => {
    expect(ask([1_000, 1_250, 1_000 + SEEK_SPACING_MS - 1]).allowed).toEqual([true, false, false]);
  });

  it('waits twice as long each time a seek did not hold, up to a limit', () => {
    const s = SEEK_SPACING_MS;
    const { allowed, budget } = ask([0, s, s + 2 * s, s + 2 * s + 3 * s]);
    expect(allowed).toEqual([true, true, true, false]);
    expect(budget.spacingMs).toBe(4 * s);
    let t = 0;
    let b = freshSeekBudget();
    for (let i = 0; i < 20; i++) {
      const spent = spendSeek(b, t);
      b = spent.budget;
      t += b.spacingMs; // asks again as soon as it may: never held
    }
    expect(b.spacingMs).toBe(SEEK_SPACING_MAX_MS);
  });

  it('a seek that held (none needed for twice the spacing) brings the spacing back down', () => {
    const s = SEEK_SPACING_MS;
    const { budget } = ask([0, s, s + 2 * s]);
    expect(budget.spacingMs).toBe(4 * s);
    expect(ask([s + 2 * s + 8 * s], budget).budget.spacingMs).toBe(s);
  });
});

describe('programStartPosition', () => {
  // The last segment starts at media time 20 s, stamped 12:00:20 (ms since epoch below).
  const edge = { start: 20, programDateTime: 1_000_020_000 };
  const window = { start: 14, end: 22 };

  it('is the media time whose program date-time is the target', () => {
    expect(programStartPosition(edge, window, 1_000_017_500)).toBeCloseTo(17.5, 6);
    expect(programStartPosition(edge, window, 1_000_021_000)).toBeCloseTo(21, 6);
  });

  it('is null outside the window: hls.js would snap back to its live edge', () => {
    expect(programStartPosition(edge, window, 1_000_013_000)).toBeNull();
    expect(programStartPosition(edge, window, 1_000_023_000)).toBeNull();
  });
});

describe('keyframeStart', () => {
  // A window of four 2 s segments: 14, 16, 18, 20 (the oldest, at 14, leaves it next); the
  // playlist ends at 22, so a start may move later up to 22 − 2 − 1 = 19.
  const segmentStarts = [14, 16, 18, 20];
  const playlist = { segmentStarts, edge: 22, targetDuration: 2 };
  // The same window ending elsewhere: a start may move later up to `latest`.
  const endingFor = (latest: number) => ({ segmentStarts, edge: latest + 2 + START_PUBLISH_MARGIN_S, targetDuration: 2 });

  it('moves a start to the nearest segment start within a second, either way', () => {
    expect(keyframeStart(17.2, playlist)).toBe(18);
    expect(keyframeStart(16.9, playlist)).toBe(16);
    expect(keyframeStart(19.0, playlist)).toBe(18); // a tie: the earlier start, the longer buffer
    expect(keyframeStart(20.6, playlist)).toBe(20); // earlier: always allowed
  });

  it('never moves to the oldest segment, which leaves the window next', () => {
    expect(keyframeStart(14.3, playlist)).toBe(14.3);
    expect(keyframeStart(15.2, playlist)).toBe(16);
  });

  it('never moves later than a target duration and a second before the end (a short window: it would wait for the next segment)', () => {
    expect(keyframeStart(19.4, playlist)).toBe(19.4); // 20 is nearer, but past 19
    expect(keyframeStart(19.4, endingFor(20))).toBe(20);
    expect(keyframeStart(17.2, endingFor(17.5))).toBe(17.2);
  });

  it('keeps a start more than a second from any segment start (long segments)', () => {
    const long = { segmentStarts: [24, 30, 36], edge: 42, targetDuration: 6 };
    expect(keyframeStart(33, long)).toBe(33);
    expect(keyframeStart(31, long)).toBe(30);
    expect(START_SNAP_MAX_S).toBe(1);
  });
});

describe('learnSeekLead', () => {
  it('aims further ahead after landing behind, less after landing ahead, halfway each time', () => {
    expect(learnSeekLead(300, -400)).toBe(500);
    expect(learnSeekLead(300, 200)).toBe(200);
  });

  it('stays within 0 and the most it may lead', () => {
    expect(learnSeekLead(100, 1_000)).toBe(0);
    expect(learnSeekLead(SEEK_LEAD_MAX_MS - 100, -1_000)).toBe(SEEK_LEAD_MAX_MS);
  });

  it('learns nothing from a landing that says something else happened', () => {
    expect(learnSeekLead(300, -5_000)).toBe(300);
    expect(learnSeekLead(300, Number.NaN)).toBe(300);
  });
});
