/** A screen part may send only the reports it declares (web/features/screen/parts/part.ts). */
import { describe, expect, it, vi } from 'vitest';
import { definePart, startParts } from '../../web/features/screen/parts/part.ts';
import { flipReportPart } from '../../web/features/screen/parts/flip-report.ts';
import { lastFlipAtom, type FlipDetail } from '../../web/features/screen/flip-scheduler.ts';
import { store } from '../../web/lib/store.ts';

/** A registered wall's session as a part sees it; `report` hears what the part sends. */
const wallSession = (report: (name: string, report: unknown) => void = () => {}) => ({
  page: { kind: 'wall' as const },
  registration: { kind: 'wall' as const },
  device: null,
  installed: false,
  resyncEveryMs: undefined,
  registered: () => true,
  register: () => {},
  report,
  ask: async () => ({ error: 'none' }),
  listen: () => () => {},
});

describe('screen parts', () => {
  it('a part may send only the reports it declares', () => {
    const calls: string[] = [];
    const rogue = definePart<'clock'>({
      name: 'rogue',
      reports: ['clock'],
      start: (session) => ({ changed: () => session.report('health' as 'clock', { offset_ms: 0, error_ms: 0 }) }),
    });
    const honest = definePart<'clock'>({ name: 'honest', reports: ['clock'], start: (session) => ({ changed: () => session.report('clock', { offset_ms: 1, error_ms: 1 }) }) });
    const session = wallSession((name) => void calls.push(name));
    const errors: unknown[] = [];
    const original = console.error;
    console.error = (...args: unknown[]) => void errors.push((args[1] as Error).message);
    try {
      startParts([rogue], session).stop();
    } finally {
      console.error = original;
    }
    expect(errors).toEqual(['The screen part "rogue" sends "health" reports, which it does not declare']);
    expect(calls).toEqual([]); // refused, never sent
    startParts([honest], session).stop();
    expect(calls).toEqual(['clock']);
  });

  it('a part that throws is reported, and the other parts and the session go on', () => {
    const heard: string[] = [];
    const broken = definePart({ name: 'broken', start: () => ({ changed: () => { throw new Error('boom'); }, registered: () => { throw new Error('boom'); }, stop: () => { throw new Error('boom'); } }) });
    const healthy = definePart({ name: 'healthy', start: () => ({ changed: () => void heard.push('changed'), registered: () => void heard.push('registered'), stop: () => void heard.push('stopped') }) });
    const session = wallSession();
    const errors: unknown[] = [];
    const original = console.error;
    console.error = (...args: unknown[]) => void errors.push(args[0]);
    try {
      const running = startParts([broken, healthy], session);
      running.registered({ kind: 'wall', version: 1, follows: null, scene: null, streams: [], problem: null });
      running.stop(() => heard.push('settled'));
    } finally {
      console.error = original;
    }
    expect(heard).toEqual(['changed', 'registered', 'settled', 'stopped']);
    expect(errors).toEqual(['The screen part "broken" failed in changed', 'The screen part "broken" failed in registered', 'The screen part "broken" failed in stop']);
  });

  it("sends a flip's report a second after the flip, not in the catch-up that announced it", () => {
    vi.useFakeTimers();
    const sent: unknown[] = [];
    const session = wallSession((_name, report) => void sent.push(report));
    const flip = (late: number): FlipDetail => ({ version: 1, at: 0, frameTime: 100, renderedAt: 106.4, workMs: 6.4, lateMs: late, frameRenders: 0, frameEffects: 0, catchUpRenders: 3 });
    try {
      const running = startParts([flipReportPart], session);
      store.set(lastFlipAtom, flip(12.4)); // what the catch-up does
      expect(sent).toEqual([]);
      store.set(lastFlipAtom, flip(20.6)); // a second flip within the second: its report is the one that goes
      vi.advanceTimersByTime(999);
      expect(sent).toEqual([]);
      vi.advanceTimersByTime(1);
      expect(sent).toEqual([{ render_ms: 6, late_ms: 21 }]);
      // A flip the session stops before its second has come is not sent after the session.
      store.set(lastFlipAtom, flip(40));
      running.stop();
      vi.advanceTimersByTime(2_000);
      expect(sent).toHaveLength(1);
    } finally {
      store.set(lastFlipAtom, null);
      vi.useRealTimers();
    }
  });
});
