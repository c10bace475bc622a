/**
 * A deploy's worker left waiting is told to take over (web/lib/service-worker.ts): Chromium can
 * leave the takeover the worker asked for itself waiting, and heeds only the first skipWaiting the
 * waiting worker makes afterwards, so a page tells it once, a moment after it finds it waiting. The
 * registration here is a stand-in with the browser's shape; the real browser is driven by
 * tests/e2e/offline.spec.ts.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SKIP_WAITING_AFTER_MS, SKIP_WAITING_MESSAGE } from '../../src/shared/offline.ts';
import { urgeWaiting } from '../../web/lib/service-worker.ts';

class FakeWorker extends EventTarget {
  state = 'installing';
  readonly posted: unknown[] = [];
  postMessage(message: unknown) {
    this.posted.push(message);
  }
  become(state: string) {
    this.state = state;
    this.dispatchEvent(new Event('statechange'));
  }
}

class FakeRegistration extends EventTarget {
  installing: FakeWorker | null = null;
  waiting: FakeWorker | null = null;
  install(worker: FakeWorker) {
    this.installing = worker;
    this.dispatchEvent(new Event('updatefound'));
  }
  installed(worker: FakeWorker) {
    this.installing = null;
    this.waiting = worker;
    worker.become('installed');
  }
  activated(worker: FakeWorker) {
    this.waiting = null;
    worker.become('activated');
  }
}

const urge = (registration: FakeRegistration) => urgeWaiting(registration as unknown as ServiceWorkerRegistration);

/** A page that registered, then a deploy's worker that installed and waits. */
function installedWorker(): { registration: FakeRegistration; next: FakeWorker } {
  const registration = new FakeRegistration();
  urge(registration);
  const next = new FakeWorker();
  registration.install(next);
  registration.installed(next);
  return { registration, next };
}

describe('a worker left waiting', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('is told to take over once, a moment after it installed, when it still waits', () => {
    const { next } = installedWorker();
    // Not in the instant it installed (its own request covers that instant).
    vi.advanceTimersByTime(SKIP_WAITING_AFTER_MS - 1);
    expect(next.posted).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(next.posted).toEqual([SKIP_WAITING_MESSAGE]);
    vi.advanceTimersByTime(SKIP_WAITING_AFTER_MS * 10);
    expect(next.posted).toEqual([SKIP_WAITING_MESSAGE]);
  });

  it('is not told when it took over by itself', () => {
    const { registration, next } = installedWorker();
    registration.activated(next);
    vi.advanceTimersByTime(SKIP_WAITING_AFTER_MS * 2);
    expect(next.posted).toEqual([]);
  });

  it('is found when the page registers: a worker already waiting is told too', () => {
    const registration = new FakeRegistration();
    const waiting = new FakeWorker();
    registration.waiting = waiting;
    urge(registration);
    vi.advanceTimersByTime(SKIP_WAITING_AFTER_MS);
    expect(waiting.posted).toEqual([SKIP_WAITING_MESSAGE]);
  });
});
