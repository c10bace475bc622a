/**
 * Whether this screen could start without its server (web/lib/service-worker.ts: a worker controls
 * it, one is installing, or there can be none): the `offline_start` report, for the Screens tab's
 * "No offline start".
 */
import type { OfflineStart } from '../../../../src/shared/offline.ts';
import { offlineStartAtom } from '../../../lib/service-worker.ts';
import { store } from '../../../lib/store.ts';
import { definePart } from './part.ts';
import { createStateReporter } from './state-reporter.ts';

export const offlineStartPart = definePart<'offline_start'>({
  name: 'offline start',
  follows: [offlineStartAtom],
  reports: ['offline_start'],
  start(session) {
    const reporter = createStateReporter<OfflineStart>({ send: (state) => session.report('offline_start', { state }) });
    return {
      changed: () => reporter.update(store.get(offlineStartAtom)),
      registered: () => reporter.resend(),
      stop: () => reporter.stop(),
    };
  },
});
