/**
 * How this screen's players are doing (playback.ts sums them up per stream): sent as the `health`
 * report when it changes (at most every 3 s) and every 30 s unchanged — the screen's heartbeat.
 * The screens module keeps it for the Screens tab; quality hears a stream that fails.
 */
import type { HealthReport } from '../../../../src/shared/events.ts';
import { healthReportAtom } from '../playback.ts';
import { store } from '../../../lib/store.ts';
import { definePart } from './part.ts';
import { createStateReporter, HEALTH_HEARTBEAT_MS, HEALTH_MIN_INTERVAL_MS } from './state-reporter.ts';

export const healthPart = definePart<'health'>({
  name: 'health',
  follows: [healthReportAtom],
  reports: ['health'],
  start(session) {
    const reporter = createStateReporter<HealthReport>({
      send: (report) => session.report('health', report),
      minIntervalMs: HEALTH_MIN_INTERVAL_MS,
      heartbeatMs: HEALTH_HEARTBEAT_MS,
    });
    return {
      changed: () => reporter.update(store.get(healthReportAtom)),
      registered: () => reporter.resend(),
      stop: () => reporter.stop(),
    };
  },
});
