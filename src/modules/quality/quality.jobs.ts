/**
 * Quality analyses as jobs on the PostgreSQL queue: `QUALITY_CONCURRENCY` per node, one at a
 * time per stream (a stately queue keyed by stream: one waiting and one running at most), every
 * active stream again every `QUALITY_REANALYZE_HOURS` (a sweep every 15 minutes queues the due
 * ones), a confirming re-check `QUALITY_RECHECK_SECONDS` after a first failure, offline streams
 * re-checked on the same period so they come back, and an immediate check when screens report a
 * stream failing.
 */
import type { Orm } from '../../db.ts';
import { runCommand, type CommandDeps } from '../../domain/command.ts';
import type { SafeFetcher } from '../../http/safe-fetch.ts';
import type { JobQueue } from '../../jobs/queue.ts';
import type { Logger } from '../../logger.ts';
import { SCREEN_ERROR_SECONDS } from '../../shared/quality/health.ts';
import type { PlatformSettings } from '../discovery/adapters/adapter.ts';
import { Stream } from '../streams/stream.entity.ts';
import { analyzeStream, type AnalyzerContext } from './analyzer/index.ts';
import { MediaToolError, type MediaTools } from './analyzer/media-tools.ts';
import { QualityRun, type AnalysisTrigger } from './quality.entity.ts';
import { countInRun, recordAnalysis, type Recorded } from './quality.service.ts';

export const QUALITY_QUEUE = 'quality';
/** Delayed re-checks wait here, so they never hold a stream's place in the analysis queue. */
const RECHECK_QUEUE = 'quality-recheck';
const SWEEP_QUEUE = 'quality-sweep';
const ACTOR = 'quality';

export interface QualitySettings {
  /** QUALITY_CONCURRENCY: analyses one node runs at once. */
  concurrency: number;
  /** QUALITY_REANALYZE_HOURS: every active stream is analysed again after this long. */
  reanalyzeHours: number;
  /** QUALITY_RECHECK_SECONDS: a first failure is confirmed (and offline streams re-checked) after this long. */
  recheckSeconds: number;
  /** FFMPEG_PATH / FFPROBE_PATH. */
  tools: MediaTools;
  /** Seconds of picture sampled. */
  sampleSeconds: number;
  /** QUALITY_SWEEP_CRON: when due streams are looked for (null: never — a test run that must stay still). */
  sweepCron: string | null;
}

export const DEFAULT_QUALITY_SETTINGS: QualitySettings = {
  concurrency: 2,
  reanalyzeHours: 6,
  recheckSeconds: 20,
  tools: { ffmpeg: 'ffmpeg', ffprobe: 'ffprobe' },
  sampleSeconds: 8,
  sweepCron: '*/15 * * * *',
};

interface QueueData {
  streamId: number;
  trigger: AnalysisTrigger;
  runId?: number;
}

export interface QualityJobsDeps {
  orm: Orm;
  queue: JobQueue;
  commands: CommandDeps;
  fetcher: SafeFetcher;
  platforms: PlatformSettings;
  settings: QualitySettings;
  /** Whether this node works jobs (JOBS_ENABLED). */
  work: boolean;
  heartbeatSeconds: number;
  logger: Logger;
}

export interface QualityJobs {
  start(): Promise<void>;
  /** Queues one analysis; false when one is already waiting for that stream. */
  enqueue(data: QueueData): Promise<boolean>;
  /** Queues every active stream as one run. */
  analyzeAll(actor: string): Promise<QualityRun>;
  /** Runs one analysis here and now (the API's `wait: true`). */
  analyzeNow(streamId: number, trigger: AnalysisTrigger): Promise<Recorded | null>;
  /** Queues every active stream whose last analysis is older than QUALITY_REANALYZE_HOURS (the 15-minute sweep). */
  sweep(): Promise<void>;
  /** A screen's report about a stream's playback (from the hub). */
  playbackReport(streamId: number, state: string): void;
  stop(): void;
}

export function createQualityJobs(deps: QualityJobsDeps): QualityJobs {
  const { orm, queue, logger, settings } = deps;
  const quiet: CommandDeps = { publisher: deps.commands.publisher };
  const failingSince = new Map<number, number>();
  const lastScreenCheck = new Map<number, number>();
  let timer: NodeJS.Timeout | undefined;
  const ctx: AnalyzerContext = {
    fetcher: deps.fetcher,
    tools: settings.tools,
    platforms: deps.platforms,
    sampleSeconds: settings.sampleSeconds,
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  };

  async function enqueue(data: QueueData): Promise<boolean> {
    const id = await queue.send(QUALITY_QUEUE, data, { singletonKey: String(data.streamId) });
    return id !== null;
  }

  async function analyzeNow(streamId: number, trigger: AnalysisTrigger, runId?: number): Promise<Recorded | null> {
    const stream = await orm.em.fork().findOne(Stream, { id: streamId });
    if (!stream) return null;
    // News only, nothing to write: straight to the publisher.
    await deps.commands.publisher.publish([{ type: 'quality.started', streamId, name: stream.name, ...(runId ? { runId } : {}), transient: true }]);
    const started = Date.now();
    let analysis: Parameters<typeof recordAnalysis>[3]['analysis'];
    try {
      analysis = await analyzeStream({ url: stream.url, latitude: stream.latitude ?? null, longitude: stream.longitude ?? null }, ctx);
    } catch (error) {
      if (!(error instanceof MediaToolError)) logger.error({ err: error, streamId }, 'quality analysis failed');
      analysis = { error: error instanceof Error ? error.message : String(error) };
    }
    const since = failingSince.get(streamId);
    const screensFailing = since !== undefined && Date.now() - since >= SCREEN_ERROR_SECONDS * 1000;
    const recorded = await runCommand(orm.em.fork(), quiet, ACTOR, async (tx, changes) => {
      const done = await recordAnalysis(tx, changes, streamId, { analysis, trigger, durationMs: Date.now() - started, screensFailing, runId });
      if (runId) await countInRun(tx, runId, !done?.result || done.result.faults.includes('unreachable'));
      return done;
    });
    // A first failure is confirmed soon (offline takes two), and an offline stream is watched for its return.
    if (recorded?.result?.faults.includes('unreachable') && recorded.stream.failedChecks < 2) {
      await queue.send(RECHECK_QUEUE, { streamId }, { singletonKey: String(streamId), startAfter: settings.recheckSeconds }).catch(() => undefined);
    }
    return recorded;
  }

  async function sweep(): Promise<void> {
    const due = new Date(Date.now() - settings.reanalyzeHours * 3600_000);
    const streams = await orm.em.fork().find(Stream, { active: true, $or: [{ qualityAssessedAt: null }, { qualityAssessedAt: { $lt: due } }] }, { fields: ['id'] });
    for (const s of streams) await enqueue({ streamId: s.id, trigger: 'schedule' });
  }

  async function recheckOffline(): Promise<void> {
    const offline = await orm.em.fork().find(Stream, { active: true, health: 'offline' }, { fields: ['id'] });
    for (const s of offline) await enqueue({ streamId: s.id, trigger: 'recheck' });
  }

  return {
    async start() {
      const options = { policy: 'stately' as const, retryLimit: 1, retryDelay: 5, expireInSeconds: 300, heartbeatSeconds: deps.heartbeatSeconds, deleteAfterSeconds: 24 * 3600 };
      await queue.createQueue(QUALITY_QUEUE, options);
      await queue.createQueue(RECHECK_QUEUE, { policy: 'stately', retryLimit: 1 });
      await queue.createQueue(SWEEP_QUEUE, { policy: 'singleton' });
      if (settings.sweepCron) await queue.schedule(SWEEP_QUEUE, settings.sweepCron, {}, { tz: 'UTC' });
      else await queue.unschedule(SWEEP_QUEUE);
      if (deps.work) {
        await queue.work<QueueData>(QUALITY_QUEUE, { batchSize: 1, localConcurrency: settings.concurrency, pollingIntervalSeconds: 1 }, async ([job]) => {
          if (job) await analyzeNow(job.data.streamId, job.data.trigger, job.data.runId);
        });
        await queue.work<{ streamId: number }>(RECHECK_QUEUE, { pollingIntervalSeconds: 1 }, async ([job]) => {
          if (job) await enqueue({ streamId: job.data.streamId, trigger: 'recheck' });
        });
        await queue.work(SWEEP_QUEUE, { pollingIntervalSeconds: 30 }, async () => {
          await sweep();
        });
      }
      timer = setInterval(() => void recheckOffline().catch((error: unknown) => logger.warn({ err: error }, 'quality: offline re-check failed')), settings.recheckSeconds * 1000);
      timer.unref();
    },

    enqueue,

    async analyzeAll(actor) {
      const streams = await orm.em.fork().find(Stream, { active: true }, { fields: ['id', 'name'], orderBy: { id: 'asc' } });
      const run = await runCommand(orm.em.fork(), deps.commands, actor, async (tx, changes) => {
        const created = tx.create(QualityRun, { total: streams.length, startedBy: actor, ...(streams.length === 0 ? { finishedAt: new Date() } : {}) });
        await tx.flush();
        changes.push({ type: 'quality.queued', runId: created.id, name: `${streams.length} streams` });
        return created;
      });
      let skipped = 0;
      for (const s of streams) {
        if (!(await enqueue({ streamId: s.id, trigger: 'all', runId: run.id }))) skipped++;
      }
      // A stream already waiting for its analysis is counted as done by this run: it will be analysed anyway.
      if (skipped > 0) {
        await orm.em.fork().execute('update quality_runs set total = total - ?, finished_at = case when done >= total - ? then now() else null end where id = ?', [skipped, skipped, run.id], 'run');
      }
      return orm.em.fork().findOneOrFail(QualityRun, { id: run.id });
    },

    analyzeNow: (streamId, trigger) => analyzeNow(streamId, trigger),

    sweep,

    playbackReport(streamId, state) {
      if (state === 'playing') {
        failingSince.delete(streamId);
        return;
      }
      if (state !== 'error' && state !== 'stalled') return;
      if (!failingSince.has(streamId)) failingSince.set(streamId, Date.now());
      const last = lastScreenCheck.get(streamId) ?? 0;
      if (Date.now() - last < 15_000) return; // one check per stream per 15 s, however many screens report
      lastScreenCheck.set(streamId, Date.now());
      void enqueue({ streamId, trigger: 'screens' }).catch((error: unknown) => logger.warn({ err: error, streamId }, 'quality: could not queue a check'));
    },

    stop() {
      if (timer) clearInterval(timer);
    },
  };
}
