/**
 * How far this screen's own clock (`Date`) is from the server's, by its estimate, and the bound
 * of that estimate: the `clock` report, sent when it moved by more than 10 ms (each refresh of
 * the estimate moves it by a fraction), for the Screens tab ("Own clock 1.9 s behind").
 */
import { clockMoved, type ClockEstimate } from '../../../../src/shared/clock.ts';
import type { ClockReport } from '../../../../src/shared/events.ts';
import { store } from '../../../lib/store.ts';
import { clockAtom } from '../atoms.ts';
import { definePart } from './part.ts';
import { createStateReporter } from './state-reporter.ts';

/** The screen's clock as admins see it: its own clock's offset from the server's, and the bound of the estimate. */
export function clockReport(estimate: ClockEstimate, performanceNow: number, dateNow: number): ClockReport {
  return { offset_ms: Math.round(performanceNow + estimate.offsetMs - dateNow), error_ms: Math.ceil(estimate.errorMs * 10) / 10 };
}

export const clockPart = definePart<'clock'>({
  name: 'clock',
  follows: [clockAtom],
  reports: ['clock'],
  start(session) {
    const reporter = createStateReporter<ClockReport>({ send: (report) => session.report('clock', report), same: (sent, next) => !clockMoved(sent, next) });
    return {
      changed() {
        const estimate = store.get(clockAtom);
        if (estimate) reporter.update(clockReport(estimate, performance.now(), Date.now()));
      },
      registered: () => reporter.resend(),
      stop: () => reporter.stop(),
    };
  },
});
