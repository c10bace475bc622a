/**
 * This screen's last flip, as the flip scheduler announced it: how long its frame took to render
 * and how late that was on the server's clock — the `flip` report, for the Screens tab ("Last
 * flip rendered in 6 ms · shown on time", *Flips late*). Sent after the flip's catch-up, never in
 * its frame.
 */
import type { FlipReport } from '../../../../src/shared/events.ts';
import { store } from '../../../lib/store.ts';
import { lastFlipAtom, type FlipDetail } from '../flip-scheduler.ts';
import { definePart } from './part.ts';
import { createStateReporter } from './state-reporter.ts';

/** Rounded: a report that only moved by a fraction of a millisecond is no news. */
export function flipReport(flip: FlipDetail): FlipReport {
  return { render_ms: Math.round(flip.renderedAt - flip.frameTime), late_ms: flip.lateMs === null ? null : Math.round(flip.lateMs) };
}

export const flipReportPart = definePart<'flip'>({
  name: 'flip report',
  follows: [lastFlipAtom],
  reports: ['flip'],
  start(session) {
    const reporter = createStateReporter<FlipReport>({ send: (report) => session.report('flip', report) });
    return {
      changed() {
        const flip = store.get(lastFlipAtom);
        if (flip) reporter.update(flipReport(flip));
      },
      registered: () => reporter.resend(),
      stop: () => reporter.stop(),
    };
  },
});
