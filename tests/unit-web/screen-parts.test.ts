/** A screen part may send only the reports it declares (web/features/screen/parts/part.ts). */
import { describe, expect, it } from 'vitest';
import { definePart, startParts } from '../../web/features/screen/parts/part.ts';

describe('screen parts', () => {
  it('a part may send only the reports it declares', () => {
    const calls: string[] = [];
    const rogue = definePart<'clock'>({
      name: 'rogue',
      reports: ['clock'],
      start: (session) => ({ changed: () => session.report('health' as 'clock', { offset_ms: 0, error_ms: 0 }) }),
    });
    const honest = definePart<'clock'>({ name: 'honest', reports: ['clock'], start: (session) => ({ changed: () => session.report('clock', { offset_ms: 1, error_ms: 1 }) }) });
    const session = {
      page: { kind: 'wall' as const },
      registration: { kind: 'wall' as const },
      device: null,
      installed: false,
      resyncEveryMs: undefined,
      registered: () => true,
      register: () => {},
      report: (name: string) => void calls.push(name),
      ask: async () => ({ error: 'none' }),
      listen: () => () => {},
    };
    expect(() => startParts([rogue], session)).toThrow('The screen part "rogue" sends "health" reports, which it does not declare');
    startParts([honest], session).stop();
    expect(calls).toEqual(['clock']);
  });
});
