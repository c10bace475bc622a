/**
 * A screen's estimate of the server's clock, from request/answer samples over its socket (the
 * NTP idea, kept small). Pure, so the browser, the Node screen client and the tests share it.
 *
 * Times on the screen are its monotonic clock (`performance.now()`), never `Date`: a system
 * clock that is changed or slewed under a running wall cannot move its flips. A sample is the
 * local instant the question left, the server's time in its answer, and the local instant the
 * answer arrived. Whatever the delays, the server read its clock somewhere in between, so the
 * offset (server time − local time) lies in `[server − received, server − sent]`. Every sample
 * kept narrows that interval: the estimate is the middle of their intersection and the error
 * bound is its half-width — about half the smallest round trip, and never smaller than half
 * the difference between the two directions' delays, which no exchange of messages can see.
 */

export interface ClockSample {
  /** Local monotonic ms when the question was sent. */
  sentAt: number;
  /** The server's clock in its answer (ms since the Unix epoch, fractional). */
  serverTime: number;
  /** Local monotonic ms when the answer arrived. */
  receivedAt: number;
}

export interface ClockEstimate {
  /** Server time ≈ local monotonic time + offsetMs. */
  offsetMs: number;
  /** The true offset lies within offsetMs ± errorMs (for a server that answers at once). */
  errorMs: number;
  /** The smallest round trip among the samples used. */
  rttMs: number;
  /** How many samples the estimate rests on. */
  samples: number;
  /** Local monotonic ms the estimate was made at (its last sample's answer): what it ages from. */
  at: number;
}

/** Samples per burst: at connect, after a reconnect, and at every refresh. */
export const CLOCK_BURST = 6;
/** Of a burst, the samples with the smallest round trips are kept (the others waited in queues). */
export const CLOCK_KEEP = 3;
/** A fresh burst this often keeps the estimate honest against the two clocks' drift... */
export const CLOCK_REFRESH_MS = 30_000;
/** ...give or take this share, drawn afresh each time. */
export const CLOCK_REFRESH_JITTER = 0.25;

/**
 * The wait before a screen's next burst (`random` in [0, 1)): screens that connected together — a
 * venue after a restart, a node's walls after a roll — would otherwise sample together every
 * 30 s for good, thousands of round trips in one instant, and a push made in that instant waited
 * behind them (bench:cluster: 500 walls' refresh put 200–430 ms on a switch). Each wait drawn
 * afresh, they drift apart within a few refreshes.
 */
export function clockRefreshDelay(random: number): number {
  return Math.round(CLOCK_REFRESH_MS * (1 - CLOCK_REFRESH_JITTER + 2 * CLOCK_REFRESH_JITTER * random));
}
/**
 * The wait before a connection's second burst (`random` in [0, 1)): 3 to 8 s, when the page has
 * settled (its first burst came while it registered and started its players), spread so that a
 * venue's walls connecting together do not sample together again.
 */
export function clockSettleDelay(random: number): number {
  return Math.round(3_000 + 5_000 * random);
}
/** The server's clock is read to the microsecond, but allow for a coarse one. */
const SERVER_RESOLUTION_MS = 0.5;

/**
 * The estimate from one burst of samples, or null without a usable sample. Samples whose round
 * trip is far above the best are left out; when the kept intervals do not meet (a clock
 * stepped during the burst), the best sample alone decides.
 */
export function estimateClock(samples: readonly ClockSample[], keep = CLOCK_KEEP): ClockEstimate | null {
  const usable = samples.filter((s) => Number.isFinite(s.sentAt) && Number.isFinite(s.serverTime) && Number.isFinite(s.receivedAt) && s.receivedAt >= s.sentAt);
  if (usable.length === 0) return null;
  const best = [...usable].sort((a, b) => a.receivedAt - a.sentAt - (b.receivedAt - b.sentAt)).slice(0, Math.max(1, keep));
  const interval = (s: ClockSample): [number, number] => [s.serverTime - s.receivedAt - SERVER_RESOLUTION_MS, s.serverTime - s.sentAt + SERVER_RESOLUTION_MS];
  let [low, high] = interval(best[0]!);
  let used = 1;
  for (const sample of best.slice(1)) {
    const [l, h] = interval(sample);
    if (Math.max(low, l) > Math.min(high, h)) continue; // inconsistent with the best: left out
    low = Math.max(low, l);
    high = Math.min(high, h);
    used++;
  }
  const rtt = best[0]!.receivedAt - best[0]!.sentAt;
  const at = Math.max(...usable.map((s) => s.receivedAt));
  return { offsetMs: (low + high) / 2, errorMs: (high - low) / 2, rttMs: rtt, samples: used, at };
}

/**
 * How fast the screen's clock and the server's may run apart, as a share of the time elapsed:
 * NTP allows 15 ppm; an ordinary PC's or board's crystal stays within 100.
 */
export const CLOCK_DRIFT = 100e-6;

/**
 * A new burst's estimate, narrowed by the one before it on the same connection. A burst taken
 * while the screen is busy (its first, right after registering, while the page starts its
 * players; one during a flip) reads its answers late: its interval is wide and its middle is
 * early by half the wait — a wall then flips late by that until a better burst comes. What an
 * earlier estimate knew still holds, widened by the drift since (CLOCK_DRIFT, both ways), so
 * the two intervals are intersected and the best samples of the last bursts decide (NTP's clock
 * filter keeps its lowest-delay sample the same way). When they do not meet, a clock stepped in
 * between: the new estimate alone.
 */
export function combineEstimates(previous: ClockEstimate | null, next: ClockEstimate): ClockEstimate {
  if (!previous) return next;
  const widen = Math.max(0, next.at - previous.at) * CLOCK_DRIFT;
  const low = Math.max(previous.offsetMs - previous.errorMs - widen, next.offsetMs - next.errorMs);
  const high = Math.min(previous.offsetMs + previous.errorMs + widen, next.offsetMs + next.errorMs);
  if (low > high) return next;
  return { offsetMs: (low + high) / 2, errorMs: (high - low) / 2, rttMs: Math.min(previous.rttMs, next.rttMs), samples: previous.samples + next.samples, at: next.at };
}

/** Server time now, by an estimate (`localNow`: the screen's monotonic clock). */
export function serverTimeAt(estimate: Pick<ClockEstimate, 'offsetMs'>, localNow: number): number {
  return localNow + estimate.offsetMs;
}

/** The local monotonic instant at which the server's clock reads `serverTime`. */
export function localTimeOf(estimate: Pick<ClockEstimate, 'offsetMs'>, serverTime: number): number {
  return serverTime - estimate.offsetMs;
}

/**
 * Whether a screen's clock report (how far its own clock is from the server's, and the bound) is
 * news: the first one, or one that moved by more than 10 ms — each refresh of the estimate moves
 * it by a fraction, and saying every one would be noise. The screen sends, and the Screens tab is
 * told, by this one rule.
 */
export function clockMoved(before: { offset_ms: number; error_ms: number } | null, after: { offset_ms: number; error_ms: number }): boolean {
  return !before || Math.abs(after.offset_ms - before.offset_ms) > 10 || Math.abs(after.error_ms - before.error_ms) > 10;
}
