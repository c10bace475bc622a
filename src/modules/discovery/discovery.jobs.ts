/**
 * Discovery runs as durable jobs on the PostgreSQL queue (pg-boss). A run is a `discovery_jobs`
 * row plus a queue job carrying its id; any node with jobs enabled works it, at most
 * DISCOVERY_CONCURRENCY at once per node. While it runs the worker heartbeats; a worker that
 * dies goes silent, and the queue retries the job once (on any node) or fails it — the
 * reconciler then fails the row with the reason, so no row stays `running` for ever. Scheduled
 * sources are pg-boss cron schedules: one queue job per tick, whichever nodes are up.
 *
 * Errors a run meets (missing credentials, quota, an unreachable page) end it `failed` with a
 * readable message and are not retried: retrying a spent quota only spends more.
 */
import type { EntityManager, Orm } from '../../db.ts';
import type { Changes } from '../../domain/changes.ts';
import { runCommand, type CommandDeps } from '../../domain/command.ts';
import { DomainError } from '../../domain/errors.ts';
import type { SafeFetcher } from '../../http/safe-fetch.ts';
import type { JobQueue } from '../../jobs/queue.ts';
import type { Logger } from '../../logger.ts';
import type { Category, DiscoveryPlatform, IrrelevantAction, SkipReason } from '../../shared/constants.ts';
import { realSleep, type DiscoveryAdapter, type DiscoveryContext } from './adapters/adapter.ts';
import { PlatformFailure } from '../platforms/request.ts';
import type { PlatformSettings } from '../platforms/settings.ts';
import { ADAPTERS } from './adapters/index.ts';
import { DiscoveryJob, DiscoverySource } from './discovery.entity.ts';
import { queueRun, specOf } from './discovery.service.ts';
import { addToPool, sendToReview } from './intake.ts';
import { triage, type Find, type TriagePolicy } from './triage.ts';

export const DISCOVERY_QUEUE = 'discovery';
/** Finds are written (and progress pushed) every this many, or every FLUSH_MS, whichever first. */
const FLUSH_EVERY = 25;
const FLUSH_MS = 1_000;
/** A run may take an hour at most; past that the queue considers its worker gone. */
const EXPIRE_SECONDS = 60 * 60;
const ACTOR = 'discovery';
/** Platforms whose sources search live streams: a find there needs no camera word to be one. */
const LIVE_PLATFORMS: readonly DiscoveryPlatform[] = ['youtube', 'twitch', 'vimeo'];

/** What a schedule needs of a source (or that it is gone). */
export type ScheduleOf = { id: number; schedule?: string | null | undefined; active: boolean } | { id: number; deleted: true };

type QueueData = { jobId: number } | { sourceId: number; scheduled: true };

export interface DiscoveryJobsDeps {
  orm: Orm;
  queue: JobQueue;
  commands: CommandDeps;
  fetcher: SafeFetcher;
  platforms: PlatformSettings;
  settings: DiscoverySettings;
  /** Whether this node works jobs (JOBS_ENABLED). */
  work: boolean;
  heartbeatSeconds: number;
  logger: Logger;
  /** New streams in the pool, after their batch committed, with the run that added them (the quality module analyses them). */
  onStreamsAdded?: (streamIds: readonly number[], jobId: number) => void;
}

/** How this node runs discovery (the discovery module's settings). */
export interface DiscoverySettings {
  /** DISCOVERY_CONCURRENCY: discovery runs this node works at once. */
  concurrency: number;
  /** How often rows of vanished queue jobs are looked for (ms). */
  reconcileMs: number;
  /** Rate-limit waits (tests shorten them). */
  sleep?: DiscoveryContext['sleep'];
  /** The longest one platform request may take. */
  requestTimeoutMs?: number;
}

export const DEFAULT_DISCOVERY_SETTINGS: DiscoverySettings = { concurrency: 2, reconcileMs: 30_000 };

export interface DiscoveryJobs {
  start(): Promise<void>;
  /** Hands queued rows to the queue (after the command that created them committed). */
  enqueue(jobIds: readonly number[]): Promise<void>;
  /**
   * What a schedule's tick does (pg-boss's cron sends one queue job per tick, cluster-wide; its
   * worker calls this, then runs the row): the run's row, or null when the tick is skipped.
   */
  tick(sourceId: number): Promise<number | null>;
  /** Puts a source's cron schedule in the queue, or takes it out. */
  syncSchedule(source: ScheduleOf): Promise<void>;
  /** Fails rows whose queue job is gone or failed; returns how many. */
  reconcile(): Promise<number>;
  stop(): void;
}

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

export function createDiscoveryJobs(deps: DiscoveryJobsDeps): DiscoveryJobs {
  const { orm, queue, logger } = deps;
  const quiet: CommandDeps = { publisher: deps.commands.publisher }; // progress: pushed, not journaled
  let timer: NodeJS.Timeout | undefined;

  const command = <T>(commands: CommandDeps, fn: (tx: EntityManager, changes: Changes) => Promise<T>) => runCommand(orm.em.fork(), commands, ACTOR, fn);

  async function finish(jobId: number, outcome: { status: 'completed' } | { status: 'failed'; error: string }): Promise<void> {
    await command(deps.commands, async (tx, changes) => {
      const job = await tx.findOne(DiscoveryJob, { id: jobId }, { populate: ['source'] });
      if (!job || (job.status !== 'running' && job.status !== 'queued')) return;
      job.status = outcome.status;
      job.errorMessage = outcome.status === 'failed' ? outcome.error.slice(0, 1000) : null;
      job.finishedAt = new Date();
      await tx.flush();
      const name = `${job.source?.name ?? `Source #${job.id}`}: found ${job.streamsDiscovered}, added ${job.streamsAdded}${outcome.status === 'failed' ? ` (failed: ${job.errorMessage})` : ''}`;
      changes.push({ type: 'discovery.finished', jobId, sourceId: job.source?.id ?? null, name });
    });
  }

  /** Claims the row for this attempt; null when there is nothing to run (finished, or its source gone). */
  async function begin(jobId: number, queueJobId: string): Promise<{ source: DiscoverySource; job: DiscoveryJob } | null> {
    return command(quiet, async (tx, changes) => {
      const job = await tx.findOne(DiscoveryJob, { id: jobId }, { populate: ['source'] });
      if (!job || (job.status !== 'queued' && job.status !== 'running')) return null;
      job.attempts += 1;
      job.status = 'running';
      job.startedAt ??= new Date();
      job.queueJobId = queueJobId;
      if (job.attempts > 1) {
        // A retry finds (and skips) again; what it added or filed stays counted.
        job.streamsDiscovered = 0;
        job.skipped = {};
      }
      await tx.flush();
      changes.push({ type: 'discovery.progress', jobId, transient: true });
      return job.source ? { source: job.source, job } : null;
    });
  }

  async function run(jobId: number, queueJobId: string, signal: AbortSignal): Promise<void> {
    const claimed = await begin(jobId, queueJobId);
    if (!claimed) {
      await finish(jobId, { status: 'failed', error: 'The source was deleted before the run started' });
      return;
    }
    const { source, job } = claimed;
    const spec = specOf(source);
    const config = spec.config as { category?: Category; trust_all: boolean; irrelevant: IrrelevantAction; review_large?: boolean };
    const policy: TriagePolicy = {
      deliver: source.deliver,
      trustAll: config.trust_all,
      irrelevant: config.irrelevant,
      livePlatform: LIVE_PLATFORMS.includes(spec.platform),
      category: config.category,
      reviewLarge: config.review_large ?? false,
    };
    const intake = { id: source.id, name: source.name };
    // What this attempt counts; a retry finds again, and what an earlier attempt added stays counted.
    const tally = { discovered: 0, added: job.streamsAdded, reviewed: job.streamsReviewed, inactive: job.streamsInactive, skipped: { ...job.skipped } as Partial<Record<SkipReason, number>> };
    const skip = (reason: SkipReason, count = 1) => {
      if (count > 0) tally.skipped[reason] = (tally.skipped[reason] ?? 0) + count;
    };
    let toPool: Find[] = [];
    let toReview: Find[] = [];
    let flushedAt = Date.now();
    const flush = async () => {
      const [pool, review] = [toPool, toReview];
      toPool = [];
      toReview = [];
      flushedAt = Date.now();
      const newStreams = await command(quiet, async (tx, changes) => {
        const pooled = pool.length ? await addToPool(tx, changes, intake, pool) : { added: [], inactive: 0, known: 0 };
        const filed = review.length ? await sendToReview(tx, changes, intake, review) : { filed: 0, known: 0 };
        tally.added += pooled.added.length + (source.deliver === 'review' ? filed.filed : 0);
        tally.reviewed += source.deliver === 'review' ? 0 : filed.filed;
        tally.inactive += pooled.inactive;
        skip('duplicate', pooled.known + filed.known);
        await tx.nativeUpdate(DiscoveryJob, { id: jobId }, {
          streamsDiscovered: tally.discovered,
          streamsAdded: tally.added,
          streamsReviewed: tally.reviewed,
          streamsInactive: tally.inactive,
          skipped: tally.skipped,
        });
        changes.push({ type: 'discovery.progress', jobId, transient: true });
        return pooled.added;
      });
      if (newStreams.length > 0) deps.onStreamsAdded?.(newStreams, jobId);
    };
    const limit = typeof job.options.limit === 'number' ? job.options.limit : undefined;
    let listSize: number | null = null;
    const ctx: DiscoveryContext = {
      fetcher: deps.fetcher, platforms: deps.platforms, logger, signal, limit, sleep: deps.settings.sleep ?? realSleep, timeoutMs: deps.settings.requestTimeoutMs,
      listSize: (entries) => (listSize = entries),
    };
    const seen = new Set<string>();
    const adapter = ADAPTERS[spec.platform] as DiscoveryAdapter;
    for await (const stream of adapter(spec, ctx)) {
      tally.discovered++;
      const verdict = triage(stream, policy, listSize);
      if (verdict.to === 'skip') skip(verdict.reason);
      else if (seen.has(verdict.find.normalizedUrl)) skip('duplicate');
      else {
        seen.add(verdict.find.normalizedUrl);
        (verdict.to === 'pool' ? toPool : toReview).push(verdict.find);
      }
      if (toPool.length + toReview.length >= FLUSH_EVERY || Date.now() - flushedAt >= FLUSH_MS) await flush();
      if (limit !== undefined && tally.discovered >= limit) break;
    }
    await flush();
  }

  /** A schedule's tick: a row of its own, unless the source is inactive or still running (then null). */
  async function tick(sourceId: number): Promise<number | null> {
    try {
      return (await command(deps.commands, (tx, changes) => queueRun(tx, changes, sourceId, {}, 'schedule'))).id;
    } catch (error) {
      logger.info({ sourceId, reason: message(error) }, 'discovery: scheduled run skipped');
      return null;
    }
  }

  async function work(data: QueueData, queueJobId: string, signal: AbortSignal): Promise<void> {
    const jobId = 'jobId' in data ? data.jobId : await tick(data.sourceId);
    if (jobId === null) return;
    try {
      await run(jobId, queueJobId, signal);
      await finish(jobId, { status: 'completed' });
    } catch (error) {
      // Cut short by the queue (this node is stopping, or the run outlived its expiry): the queue
      // has already handed the job back for a retry on another node, or failed it, and the row
      // follows that (the retry claims it, the reconciler fails it). Failing it here would end a
      // run that is about to resume elsewhere.
      if (signal.aborted) {
        logger.info({ jobId }, 'discovery: run handed back to the queue');
        return;
      }
      const known = error instanceof PlatformFailure || error instanceof DomainError;
      if (!known) logger.error({ err: error, jobId }, 'discovery run failed');
      await finish(jobId, { status: 'failed', error: known ? message(error) : `Discovery failed: ${message(error)}` });
    }
  }

  async function failRow(jobId: number, error: string): Promise<void> {
    await finish(jobId, { status: 'failed', error }).catch((e: unknown) => logger.warn({ err: e, jobId }, 'could not mark a discovery job failed'));
  }


  async function syncSchedule(source: ScheduleOf): Promise<void> {
    const key = String(source.id);
    if ('deleted' in source || !source.schedule || !source.active) await queue.unschedule(DISCOVERY_QUEUE, key);
    else await queue.schedule(DISCOVERY_QUEUE, source.schedule, { sourceId: source.id, scheduled: true }, { key, tz: 'UTC' });
  }

  /** Every scheduled source has its schedule and nothing else has one (sources changed while the queue was away). */
  async function syncAll(): Promise<void> {
    const sources = await orm.em.fork().find(DiscoverySource, {});
    const wanted = new Set(sources.filter((s) => s.schedule && s.active).map((s) => String(s.id)));
    for (const source of sources) await syncSchedule(source);
    for (const schedule of await queue.getSchedules(DISCOVERY_QUEUE)) {
      if (!wanted.has(schedule.key)) await queue.unschedule(DISCOVERY_QUEUE, schedule.key);
    }
  }


  /** Fails rows whose queue job is gone or failed; returns how many. */
  async function reconcile(): Promise<number> {
    const em = orm.em.fork();
    const open = await em.find(DiscoveryJob, { status: { $in: ['queued', 'running'] } });
    let failed = 0;
    for (const job of open) {
      if (!job.queueJobId) {
        // Queued by a node that died before handing it to the queue.
        if (Date.now() - job.createdAt.getTime() > 2 * 60_000) {
          await failRow(job.id, 'The job was never queued (the server stopped while starting it)');
          failed++;
        }
        continue;
      }
      const queued = await queue.getJobById<QueueData>(DISCOVERY_QUEUE, job.queueJobId);
      if (queued && (queued.state === 'created' || queued.state === 'retry' || queued.state === 'active')) continue;
      const output = queued?.output as { message?: string } | undefined;
      const reason = queued?.state === 'failed'
        ? `The worker stopped during the run and the retry did not finish it${output?.message ? ` (${output.message})` : ''}`
        : queued?.state === 'cancelled' ? 'The run was cancelled' : 'The run ended without reporting (its worker stopped)';
      await failRow(job.id, reason);
      failed++;
    }
    return failed;
  }

  return {
    tick,
    async start() {
      const options = { retryLimit: 1, retryDelay: 0, expireInSeconds: EXPIRE_SECONDS, heartbeatSeconds: deps.heartbeatSeconds, deleteAfterSeconds: 7 * 24 * 3600 };
      await queue.createQueue(DISCOVERY_QUEUE, options);
      await queue.updateQueue(DISCOVERY_QUEUE, options);
      if (deps.work) {
        await queue.work<QueueData>(
          DISCOVERY_QUEUE,
          { batchSize: 1, localConcurrency: deps.settings.concurrency, pollingIntervalSeconds: 1 },
          async ([job]) => {
            if (job) await work(job.data, job.id, job.signal);
          },
        );
      }
      await syncAll();
      const every = deps.settings.reconcileMs;
      timer = setInterval(() => void reconcile().catch((error: unknown) => logger.warn({ err: error }, 'discovery reconcile failed')), every);
      timer.unref();
      await reconcile();
    },

    async enqueue(jobIds) {
      for (const jobId of jobIds) {
        try {
          const queueJobId = await queue.send(DISCOVERY_QUEUE, { jobId });
          if (!queueJobId) throw new Error('the queue refused the job');
          await orm.em.fork().nativeUpdate(DiscoveryJob, { id: jobId, queueJobId: null }, { queueJobId });
        } catch (error) {
          await failRow(jobId, `The job could not be queued: ${message(error)}`);
        }
      }
    },

    syncSchedule,

    reconcile,

    stop() {
      if (timer) clearInterval(timer);
    },
  };
}
