/**
 * Sends playback health to the hub without flooding it (the hub refuses more than 30 messages
 * in 10 s): a change goes out at once unless one went out less than `minIntervalMs` ago, in
 * which case the latest report goes out when that interval ends; an unchanged report is
 * repeated every `heartbeatMs`, which is also the screen's heartbeat in the presence list.
 */
import type { HealthReport } from '../../../src/shared/events.ts';

export const HEALTH_MIN_INTERVAL_MS = 3000;
export const HEALTH_HEARTBEAT_MS = 30_000;

export interface HealthReporter {
  /** The current report; sent if it differs from the last one sent. */
  update(report: HealthReport): void;
  /** Send the current report again now (after a re-registration the hub has forgotten it). */
  resend(): void;
  stop(): void;
}

export function createHealthReporter(options: {
  send: (report: HealthReport) => void;
  minIntervalMs?: number;
  heartbeatMs?: number;
  now?: () => number;
}): HealthReporter {
  const minInterval = options.minIntervalMs ?? HEALTH_MIN_INTERVAL_MS;
  const now = options.now ?? Date.now;
  let current: HealthReport | null = null;
  let lastSentKey: string | null = null;
  let lastSentAt = -Infinity;
  let pending: ReturnType<typeof setTimeout> | undefined;

  const flush = () => {
    pending = undefined;
    if (!current) return;
    lastSentKey = JSON.stringify(current);
    lastSentAt = now();
    options.send(current);
  };

  const schedule = () => {
    if (pending) return; // the latest report goes out when the pending timer fires
    const wait = lastSentAt + minInterval - now();
    if (wait <= 0) flush();
    else pending = setTimeout(flush, wait);
  };

  const heartbeat = setInterval(() => {
    if (current && !pending) flush();
  }, options.heartbeatMs ?? HEALTH_HEARTBEAT_MS);

  return {
    update(report) {
      current = report;
      if (JSON.stringify(report) !== lastSentKey) schedule();
    },
    resend() {
      lastSentKey = null;
      if (current) schedule();
    },
    stop() {
      clearInterval(heartbeat);
      if (pending) clearTimeout(pending);
      pending = undefined;
    },
  };
}
