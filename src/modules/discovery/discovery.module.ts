/**
 * Discovery: sources (YouTube channels and searches, Twitch, Vimeo, web pages) run on the job
 * queue — by hand or on their cron schedule — and what they find is triaged into the pool or
 * the review queue; the links an admin pastes are read here too.
 */
import { wholeNumber } from '../../env.ts';
import { defineModule } from '../module.ts';
import { platformsModule } from '../platforms/platforms.module.ts';
import { qualityModule } from '../quality/quality.module.ts';
import { discoveryPushes } from './discovery.changes.ts';
import { DiscoveryJob, DiscoverySource, DiscoveryStat } from './discovery.entity.ts';
import { createDiscoveryJobs, DEFAULT_DISCOVERY_SETTINGS, type DiscoveryJobs, type DiscoverySettings } from './discovery.jobs.ts';
import { discoveryRouter } from './discovery.routes.ts';

export const discoveryModule = defineModule<DiscoverySettings, DiscoveryJobs | undefined>({
  name: 'discovery',
  entities: [DiscoverySource, DiscoveryJob, DiscoveryStat],
  settings: {
    env: { DISCOVERY_CONCURRENCY: wholeNumber(1, 16, DEFAULT_DISCOVERY_SETTINGS.concurrency) },
    read: (e) => ({ ...DEFAULT_DISCOVERY_SETTINGS, concurrency: e.DISCOVERY_CONCURRENCY as number }),
  },
  setup({ jobs, settings, logger, use }) {
    if (!jobs) return undefined;
    const quality = use(qualityModule);
    return createDiscoveryJobs({
      ...jobs,
      platforms: use(platformsModule),
      settings,
      // What a run adds is analysed as it comes in, one import at a bounded rate.
      onStreamsAdded: (ids, jobId) => {
        void quality?.enqueueImport(ids, `discovery:${jobId}`).catch((err: unknown) => logger.warn({ err, jobId }, 'could not queue the analyses of an import'));
      },
    });
  },
  routes: ({ commands, fetcher, limits }, jobs) => [
    discoveryRouter({ commands, fetcher, discoveryJobs: jobs, extractLimit: limits.callerLimits('extract', { anonymousPoints: 30, adminPoints: 600, durationSeconds: 60 }) }),
  ],
  pushes: ({ orm }) => discoveryPushes(orm),
  jobs: (_context, jobs) => jobs,
});
