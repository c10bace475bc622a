/**
 * The screen's clock estimator (src/shared/clock.ts) on simulated links: the server's clock is
 * the screen's monotonic clock plus a true offset; every sample crosses an uplink and a downlink
 * whose delays have a base (possibly different per direction) and jitter (queues).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CLOCK_BURST, CLOCK_DRIFT, CLOCK_REFRESH_JITTER, CLOCK_REFRESH_MS, clockRefreshDelay, clockSettleDelay, combineEstimates, estimateClock, localTimeOf, serverTimeAt, type ClockSample } from '../../src/shared/clock.ts';

interface Link {
  up: number;
  down: number;
  /** Extra delay per message, drawn per sample and direction: index i of the list. */
  jitter: readonly number[];
}

/** A burst of samples over `link`, one every 40 ms from local time `start`, against a server offset. */
function burst(offset: number, link: Link, start = 10_000, n = CLOCK_BURST): ClockSample[] {
  return Array.from({ length: n }, (_, i) => {
    const sentAt = start + i * 40;
    const up = link.up + (link.jitter[2 * i] ?? 0);
    const down = link.down + (link.jitter[2 * i + 1] ?? 0);
    return { sentAt, serverTime: sentAt + up + offset, receivedAt: sentAt + up + down };
  });
}

describe('estimateClock', () => {
  it('finds the offset to within a fraction of a millisecond on a symmetric link with jitter', () => {
    const offset = 1_795_000_000_123.25 - 10_000; // a wall clock against a page's performance.now()
    const estimate = estimateClock(burst(offset, { up: 40, down: 40, jitter: [0, 0, 30, 2, 12, 60, 0.2, 0.1, 90, 4, 7, 7] }))!;
    expect(Math.abs(estimate.offsetMs - offset)).toBeLessThan(0.6);
    // The bound is half the best round trip: a symmetric link cannot be told from an asymmetric one.
    expect(estimate.rttMs).toBe(80);
    expect(estimate.errorMs).toBeCloseTo(40.5, 6);
  });

  it('keeps the true offset inside its error bound when the two directions differ (which no exchange can see)', () => {
    const offset = -2_000;
    const estimate = estimateClock(burst(offset, { up: 20, down: 130, jitter: [] }))!;
    // The estimate is off by half the difference of the two delays: that is the bound it reports.
    expect(estimate.offsetMs - offset).toBeCloseTo((20 - 130) / 2, 6);
    expect(Math.abs(estimate.offsetMs - offset)).toBeLessThanOrEqual(estimate.errorMs);
  });

  it('leaves out a sample whose answer waited in a queue', () => {
    const offset = 500;
    const samples = burst(offset, { up: 5, down: 5, jitter: [] });
    samples[0] = { sentAt: 0, serverTime: 0 + 400 + offset, receivedAt: 405 }; // 400 ms up, 5 down
    const estimate = estimateClock(samples)!;
    expect(Math.abs(estimate.offsetMs - offset)).toBeLessThan(1);
  });

  it('follows the best sample when a clock steps during the burst', () => {
    const samples = [...burst(100, { up: 3, down: 3, jitter: [] }, 0, 3), ...burst(5_100, { up: 4, down: 4, jitter: [] }, 200, 3)];
    const estimate = estimateClock(samples)!;
    expect(Math.abs(estimate.offsetMs - 100)).toBeLessThan(1);
    expect(estimate.samples).toBe(3);
  });

  it('has nothing to say without a usable sample', () => {
    expect(estimateClock([])).toBeNull();
    expect(estimateClock([{ sentAt: 10, serverTime: 5, receivedAt: 9 }, { sentAt: Number.NaN, serverTime: 1, receivedAt: 2 }])).toBeNull();
  });

  it('never reports a bound that excludes the truth, whatever the delays and jitter', () => {
    fc.assert(
      fc.property(
        fc.double({ min: -1e12, max: 1e12, noNaN: true }),
        fc.double({ min: 0, max: 150, noNaN: true }),
        fc.double({ min: 0, max: 150, noNaN: true }),
        fc.array(fc.double({ min: 0, max: 200, noNaN: true }), { minLength: 2 * CLOCK_BURST, maxLength: 2 * CLOCK_BURST }),
        (offset, up, down, jitter) => {
          const estimate = estimateClock(burst(offset, { up, down, jitter }))!;
          // Floating point on 1e12 magnitudes: allow a thousandth of a millisecond.
          expect(Math.abs(estimate.offsetMs - offset)).toBeLessThanOrEqual(estimate.errorMs + 1e-3);
          // And the bound is never wider than the best round trip allows.
          expect(estimate.errorMs).toBeLessThanOrEqual(estimate.rttMs / 2 + 0.5 + 1e-3);
        },
      ),
    );
  });
});

describe('converting between the two clocks', () => {
  it('maps a server instant to the local monotonic clock and back', () => {
    const estimate = { offsetMs: 1_000_000.5 };
    expect(serverTimeAt(estimate, 250)).toBe(1_000_250.5);
    expect(localTimeOf(estimate, serverTimeAt(estimate, 250))).toBe(250);
  });
});

describe('clockRefreshDelay', () => {
  it('waits about CLOCK_REFRESH_MS, give or take CLOCK_REFRESH_JITTER, by the draw', () => {
    expect(clockRefreshDelay(0)).toBe(CLOCK_REFRESH_MS * (1 - CLOCK_REFRESH_JITTER));
    expect(clockRefreshDelay(0.5)).toBe(CLOCK_REFRESH_MS);
    expect(clockRefreshDelay(0.999_999)).toBeLessThanOrEqual(CLOCK_REFRESH_MS * (1 + CLOCK_REFRESH_JITTER));
    expect(clockRefreshDelay(0.999_999)).toBeGreaterThan(CLOCK_REFRESH_MS * (1 + CLOCK_REFRESH_JITTER) - 1);
  });

  it('spreads screens that connected together: 500 draws cover the window, none in one instant with most', () => {
    const draws = Array.from({ length: 500 }, (_, i) => clockRefreshDelay((i + 0.5) / 500));
    const bySecond = new Map<number, number>();
    for (const d of draws) bySecond.set(Math.floor(d / 1000), (bySecond.get(Math.floor(d / 1000)) ?? 0) + 1);
    expect(bySecond.size).toBeGreaterThanOrEqual(15); // 7.5 s before to 7.5 s after
    expect(Math.max(...bySecond.values())).toBeLessThanOrEqual(40);
  });
});

describe('combineEstimates: bursts on one connection narrow each other', () => {
  const offset = 1_795_000_000_000;
  /** A burst whose answers the screen read `busy` ms late (its page was rendering), as a wall's first. */
  const busyBurst = (start: number, busy: number) => burst(offset, { up: 80, down: 80 + busy, jitter: [] }, start);

  it('a burst read late moves the estimate early by half the wait; the burst before it keeps it right', () => {
    const late = estimateClock(busyBurst(40_000, 80))!;
    expect(late.offsetMs - offset).toBeCloseTo(-40, 6); // alone: the wall would flip 40 ms late
    const clean = estimateClock(busyBurst(10_000, 0))!;
    const combined = combineEstimates(clean, late);
    // Within the clean burst's bound, widened by the drift allowed over the 30 s between them.
    expect(Math.abs(combined.offsetMs - offset)).toBeLessThanOrEqual(30_000 * CLOCK_DRIFT + 1e-6);
    expect(combined.errorMs).toBeLessThanOrEqual(clean.errorMs + 30_000 * CLOCK_DRIFT);
    expect(combined.at).toBe(late.at);
    // And the other way round: a late first burst is mended by a clean one after it.
    expect(Math.abs(combineEstimates(late, clean).offsetMs - offset)).toBeLessThan(1e-6);
  });

  it('takes the new estimate alone when the two do not meet (a clock stepped between them)', () => {
    const before = estimateClock(burst(offset, { up: 5, down: 5, jitter: [] }, 0))!;
    const after = estimateClock(burst(offset + 2_000, { up: 5, down: 5, jitter: [] }, 30_000))!;
    expect(combineEstimates(before, after)).toEqual(after);
    expect(combineEstimates(null, after)).toEqual(after);
  });

  it('an old estimate fades: its bound widens by the drift allowed since, so a newer tight burst decides', () => {
    const old = estimateClock(burst(offset, { up: 2, down: 2, jitter: [] }, 0))!;
    const hourLater = estimateClock(burst(offset + 200, { up: 30, down: 30, jitter: [] }, 3_600_000))!; // 100 ppm for an hour: 360 ms allowed
    const combined = combineEstimates(old, hourLater);
    expect(Math.abs(combined.offsetMs - (offset + 200))).toBeLessThanOrEqual(hourLater.errorMs);
  });

  it('never excludes the truth while the clocks drift within CLOCK_DRIFT, whatever the delays', () => {
    fc.assert(
      fc.property(
        fc.double({ min: -CLOCK_DRIFT, max: CLOCK_DRIFT, noNaN: true }),
        fc.array(
          fc.record({
            gap: fc.double({ min: 1_000, max: 600_000, noNaN: true }),
            up: fc.double({ min: 0, max: 150, noNaN: true }),
            down: fc.double({ min: 0, max: 150, noNaN: true }),
            jitter: fc.array(fc.double({ min: 0, max: 200, noNaN: true }), { minLength: 2 * CLOCK_BURST, maxLength: 2 * CLOCK_BURST }),
          }),
          { minLength: 1, maxLength: 8 },
        ),
        (drift, bursts) => {
          let combined = null;
          let start = 10_000;
          for (const b of bursts) {
            start += b.gap;
            const trueOffset = 5_000 + drift * start;
            combined = combineEstimates(combined, estimateClock(burst(trueOffset, b, start))!);
            // The drift over one burst (a second at most) is far below the tolerance allowed here.
            expect(Math.abs(combined.offsetMs - trueOffset)).toBeLessThanOrEqual(combined.errorMs + 0.05);
          }
        },
      ),
    );
  });
});

describe('clockSettleDelay', () => {
  it("brings a connection's second burst 3 to 8 s after its first, spread by the draw", () => {
    expect(clockSettleDelay(0)).toBe(3_000);
    expect(clockSettleDelay(0.5)).toBe(5_500);
    expect(clockSettleDelay(0.999_999)).toBe(8_000);
  });
});
