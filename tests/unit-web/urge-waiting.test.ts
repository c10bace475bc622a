/**
 * A deploy's worker left waiting is told to take over (web/lib/service-worker.ts): Chromium can
 * drop the takeover the worker asked for itself, and the page asks it again, a bounded number of
 * times. The registration here is a stand-in with the browser's shape; the real browser is
 * driven by tests/e2e/offline.spec.ts.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SKIP_WAITING_MESSAGE, SKIP_WAITING_RETRY_MS, SKIP_WAITING_TRIES } from '../../src/shared/offline.ts';
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

describe('a worker left waiting', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('is told to take over when it installs, and again while it waits, until it takes over', () => {
    const registration = new FakeRegistration();
    urge(registration);
    const next = new FakeWorker();
    registration.install(next);
    expect(next.posted).toEqual([]);
    registration.installed(next);
    expect(next.posted).toEqual([SKIP_WAITING_MESSAGE]);
    vi.advanceTimersByTime(SKIP_WAITING_RETRY_MS);
    expect(next.posted).toEqual([SKIP_WAITING_MESSAGE, SKIP_WAITING_MESSAGE]);
    registration.activated(next);
    vi.advanceTimersByTime(SKIP_WAITING_RETRY_MS * 5);
    expect(next.posted).toHaveLength(2);
  });

  it('is told a bounded number of times', () => {
    const registration = new FakeRegistration();
    const stuck = new FakeWorker();
    registration.waiting = stuck;
    urge(registration);
    vi.advanceTimersByTime(SKIP_WAITING_RETRY_MS * (SKIP_WAITING_TRIES + 5));
    expect(stuck.posted).toHaveLength(SKIP_WAITING_TRIES);
  });

  it('is found when the page registers: a worker already waiting is told at once', () => {
    const registration = new FakeRegistration();
    const waiting = new FakeWorker();
    registration.waiting = waiting;
    urge(registration);
    expect(waiting.posted).toEqual([SKIP_WAITING_MESSAGE]);
  });
});
