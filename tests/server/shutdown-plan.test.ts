/** How a draining node spends SHUTDOWN_GRACE_SECONDS (src/shutdown-plan.ts). */
import { describe, expect, it } from 'vitest';
import { shutdownPlan } from '../../src/shutdown-plan.ts';

describe('the shutdown plan', () => {
  it('at the default 20 s: screens told within 10 s, waited for until 16 s, work done by 17 s', () => {
    expect(shutdownPlan(20)).toEqual({ graceMs: 20_000, spreadMs: 10_000, unreadyMs: 11_000, screensMs: 16_000, workMs: 17_000 });
  });

  it('waits for moving screens longer than it tells them, and never past the work', () => {
    for (const grace of [4, 8, 20, 60, 300]) {
      const plan = shutdownPlan(grace);
      expect(plan.spreadMs).toBeLessThan(plan.screensMs);
      expect(plan.unreadyMs).toBeLessThanOrEqual(plan.screensMs);
      expect(plan.screensMs).toBeLessThanOrEqual(plan.workMs);
      expect(plan.workMs).toBeLessThan(plan.graceMs);
    }
  });
});
