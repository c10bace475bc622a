/**
 * Sends a report that says how the screen is now without flooding the hub (it refuses more than
 * 30 messages in 10 s): a change goes out at once unless one went out less than `minIntervalMs`
 * ago, in which case the latest goes out when that interval ends; with `heartbeatMs`, an
 * unchanged report is repeated that often (the screen's heartbeat in the presence list). What
 * was sent is compared by `same` (default: equal JSON), so a report that moved by nothing worth
 * saying is not sent again.
 */
export const HEALTH_MIN_INTERVAL_MS = 3000;
export const HEALTH_HEARTBEAT_MS = 30_000;

export interface StateReporter<T> {
  /** The current report; sent if it differs from the last one sent. */
  update(report: T): void;
  /** Send the current report again now (after a re-registration the hub has forgotten it). */
  resend(): void;
  stop(): void;
}

export function createStateReporter<T>(options: {
  send: (report: T) => void;
  minIntervalMs?: number;
  /** Repeat the current report this often, changed or not (none when absent). */
  heartbeatMs?: number;
  /** Whether `next` says nothing `sent` did not (default: equal JSON). */
  same?: (sent: T, next: T) => boolean;
  now?: () => number;
}): StateReporter<T> {
  const minInterval = options.minIntervalMs ?? 0;
  const now = options.now ?? Date.now;
  const same = options.same ?? ((a: T, b: T) => JSON.stringify(a) === JSON.stringify(b));
  let current: { report: T } | null = null;
  let sent: { report: T } | null = null;
  let lastSentAt = -Infinity;
  let pending: ReturnType<typeof setTimeout> | undefined;

  const flush = () => {
    pending = undefined;
    if (!current) return;
    sent = { report: current.report };
    lastSentAt = now();
    options.send(current.report);
  };

  const schedule = () => {
    if (pending) return; // the latest report goes out when the pending timer fires
    const wait = lastSentAt + minInterval - now();
    if (wait <= 0) flush();
    else pending = setTimeout(flush, wait);
  };

  const heartbeat =
    options.heartbeatMs === undefined
      ? undefined
      : setInterval(() => {
          if (current && !pending) flush();
        }, options.heartbeatMs);

  return {
    update(report) {
      current = { report };
      if (!sent || !same(sent.report, report)) schedule();
    },
    resend() {
      sent = null;
      if (current) schedule();
    },
    stop() {
      clearInterval(heartbeat);
      if (pending) clearTimeout(pending);
      pending = undefined;
    },
  };
}
