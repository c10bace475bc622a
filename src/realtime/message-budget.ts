/**
 * A message budget per socket: `points` messages in the `windowMs` that starts with a socket's
 * first one (a fixed window, as RateLimiterMemory keeps it) — but one small entry per socket in
 * one Map, and no timer per socket. RateLimiterMemory sets a timer for every key; with screens
 * reporting in and re-reading the clock every 30 s, a third of all idle screens would hold one
 * at any moment. Ended windows are swept at most once a window.
 */
export interface MessageBudget {
  /** Counts one message of `key` at `now`; false when it is over the budget. */
  take(key: string, now?: number): boolean;
  /** Sockets with a window open (after the last sweep): for tests. */
  readonly size: number;
}

export function messageBudget(points: number, windowMs: number): MessageBudget {
  const windows = new Map<string, { used: number; endsAt: number }>();
  let sweepAt = 0;
  return {
    take(key, now = Date.now()) {
      if (now >= sweepAt) {
        for (const [k, w] of windows) if (w.endsAt <= now) windows.delete(k);
        sweepAt = now + windowMs;
      }
      const open = windows.get(key);
      if (!open || open.endsAt <= now) {
        windows.set(key, { used: 1, endsAt: now + windowMs });
        return points >= 1;
      }
      open.used++;
      return open.used <= points;
    },
    get size() {
      return windows.size;
    },
  };
}
