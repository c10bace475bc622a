/**
 * This screen's last flip, as the flip scheduler announced it: how long its frame took to render
 * and how late that was on the server's clock — the `flip` report, for the Screens tab ("Last
 * flip rendered in 6 ms · shown on time", *Flips late*). Sent a second after the flip, not in its
 * catch-up: the screens of a venue often share a machine, and one screen's catch-up runs while a
 * later screen may still be presenting its flip frame (bench:wall's video walls: 8 ms of socket
 * work a flip on a busy 2-core machine).
 */
import type { FlipReport } from '../../../../src/shared/events.ts';
import { later } from '../../../lib/later.ts';
import { store } from '../../../lib/store.ts';
import { lastFlipAtom, type FlipDetail } from '../flip-scheduler.ts';
import { definePart } from './part.ts';
import { createStateReporter } from './state-reporter.ts';

/** How long after a flip its report goes out. */
const REPORT_AFTER_MS = 1_000;

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
    const update = later(() => {
      const flip = store.get(lastFlipAtom);
      if (flip) reporter.update(flipReport(flip));
    }, REPORT_AFTER_MS);
    return {
      changed: update.ask,
      registered: () => reporter.resend(),
      stop() {
        update.cancel();
        reporter.stop();
      },
    };
  },
});
