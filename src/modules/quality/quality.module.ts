/**
 * Quality: every stream analysed (ffprobe/ffmpeg for direct streams, the platforms' APIs for
 * embeds) on the job queue, fairly — what screens show first — and re-checked until it plays.
 */
import { z } from 'zod';
import { number, wholeNumber } from '../../env.ts';
import { defineModule } from '../module.ts';
import { platformsModule } from '../platforms/platforms.module.ts';
import { screensModule } from '../screens/screens.module.ts';
import { qualityPushes } from './quality.changes.ts';
import { QualityAnalysis, QualityRun } from './quality.entity.ts';
import { createQualityJobs, DEFAULT_QUALITY_SETTINGS, type QualityJobs, type QualitySettings } from './quality.jobs.ts';
import { analyses, analysisDuration } from './quality.metrics.ts';
import { qualityReports } from './quality.reports.ts';
import { createRankingRechecks } from './ranking-rechecks.ts';
import { worthCheckingAt } from './activity-queries.ts';
import { localHour } from '../../shared/quality/activity.ts';
import { scenesModule } from '../scenes/scenes.module.ts';
import { qualityRouter } from './quality.routes.ts';

const d = DEFAULT_QUALITY_SETTINGS;

export const qualityModule = defineModule<QualitySettings, QualityJobs | undefined>({
  name: 'quality',
  entities: [QualityAnalysis, QualityRun],
  settings: {
    env: {
      QUALITY_CONCURRENCY: wholeNumber(1, 16, d.concurrency),
      QUALITY_REANALYZE_HOURS: number(0.1, 24 * 30, d.reanalyzeHours),
      QUALITY_RECHECK_SECONDS: wholeNumber(1, 3600, d.recheckSeconds),
      QUALITY_SWEEP_CRON: z.string().trim().default(d.sweepCron ?? 'off'),
      FFMPEG_PATH: z.string().min(1).default(d.tools.ffmpeg),
      FFPROBE_PATH: z.string().min(1).default(d.tools.ffprobe),
      RANKED_RECHECK_MINUTES: number(0, 1440, d.rankingBudget.everyMinutes),
      RANKED_RECHECK_STREAMS: wholeNumber(1, 200, d.rankingBudget.streams),
    },
    read: (e) => ({
      concurrency: e.QUALITY_CONCURRENCY as number,
      reanalyzeHours: e.QUALITY_REANALYZE_HOURS as number,
      recheckSeconds: e.QUALITY_RECHECK_SECONDS as number,
      tools: { ffmpeg: e.FFMPEG_PATH as string, ffprobe: e.FFPROBE_PATH as string },
      sampleSeconds: d.sampleSeconds,
      sweepCron: e.QUALITY_SWEEP_CRON === 'off' ? null : (e.QUALITY_SWEEP_CRON as string),
      rankingBudget: { everyMinutes: e.RANKED_RECHECK_MINUTES as number, streams: e.RANKED_RECHECK_STREAMS as number },
    }),
  },
  setup: ({ jobs, settings, use }) => (jobs ? createQualityJobs({ ...jobs, platforms: use(platformsModule), settings, streamsOnScreens: use(screensModule).streamsOnScreens }) : undefined),
  routes: (_context, jobs) => [qualityRouter({ qualityJobs: jobs })],
  pushes: ({ orm }) => qualityPushes(orm),
  reports: (_context, jobs) => (jobs ? qualityReports(jobs) : undefined),
  reactions: (_context, jobs) => (jobs ? [{ name: "cancel the analyses of streams that were removed", on: (changes) => jobs.committed(changes) }] : []),
  jobs({ orm, logger, settings, use }, jobs) {
    if (!jobs) return undefined;
    const rechecks = createRankingRechecks({
      budget: settings.rankingBudget,
      leaders: (limit) => use(scenesModule).ranking.leaders(limit),
      worthChecking: (limit) => worthCheckingAt(orm.em.fork(), (timezone, longitude) => localHour(Date.now(), timezone, longitude), limit),
      enqueue: (streamId) => jobs.enqueue({ streamId, trigger: 'ranking' }),
      logger,
    });
    return { start: async () => (await jobs.start(), rechecks.start()), stop: () => (rechecks.stop(), jobs.stop()) };
  },
  metrics: () => [analyses, analysisDuration],
});
