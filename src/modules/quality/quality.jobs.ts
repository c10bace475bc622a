/**
 * Quality analyses as jobs on the PostgreSQL queue — a fair queue, so no backlog starves what
 * matters (queue-rules.ts): every analysis waits in a lane (an admin's request, a screen's
 * failure report, streams on screens, newly added streams, the periodic sweep) and the lanes are
 * worked highest first. On every node one worker takes only the two urgent lanes, so an admin's
 * request or a failing wall is analysed within seconds whatever waits; the others
 * (`QUALITY_CONCURRENCY`) take any lane, and the streams of one import share one slot per node
 * (a pg-boss group), which bounds an import's rate and leaves room for the rest.
 * One analysis per stream waits at a time (keyed by stream); a more urgent request for a stream
 * that waits takes its place. Removing a stream cancels what waits or runs for it. Every active stream
 * is analysed again every `QUALITY_REANALYZE_HOURS` (a sweep queues the due ones), a first
 * failure is confirmed `QUALITY_RECHECK_SECONDS` later, and offline streams are re-checked that
 * often while a screen shows them, with backoff (minutes, then hours) while none does.
 */
import { analyses, analysisDuration } from './quality.metrics.ts';
import type { Orm } from '../../db.ts';
import type { DomainChange } from '../../domain/changes.ts';
import { runCommand, type CommandDeps } from '../../domain/command.ts';
import type { SafeFetcher } from '../../http/safe-fetch.ts';
import { queueCensus, unfinishedJobIds, type JobQueue } from '../../jobs/queue.ts';
import type { Logger } from '../../logger.ts';
import type { QualityQueueDto } from '../../shared/api/quality.ts';
import { SCREEN_ERROR_SECONDS } from '../../shared/quality/health.ts';
import { QUEUE_LANES, type QueueLane } from '../../shared/quality/queue.ts';
import type { PlatformSettings } from '../platforms/settings.ts';
import { activeStreams, offlineStreams, streamById, streamsAssessedBefore } from '../streams/stream-reads.ts';
import { analyzeStream, type AnalyzerContext } from './analyzer/index.ts';
import { MediaToolError, type MediaTools } from './analyzer/media-tools.ts';
import { QualityRun, type AnalysisTrigger } from './quality.entity.ts';
import { countInRun, recordAnalysis, type Recorded } from './quality.service.ts';
import { LANE_PRIORITY, URGENT_PRIORITY, laneOf, laneOfPriority, offlineRecheckDue } from './queue-rules.ts';
import { DEFAULT_RECHECK_BUDGET, type RecheckBudget } from './ranking-rechecks.ts';

export const QUALITY_QUEUE = 'quality';
/** Delayed re-checks wait here, so they never hold a stream's place in the analysis queue. */
const RECHECK_QUEUE = 'quality-recheck';
const SWEEP_QUEUE = 'quality-sweep';
const ACTOR = 'quality';
/** How long the set of streams on screens is reused before it is asked for again. */
const ON_SCREEN_TTL_MS = 5_000;
/** Queue pushes are at most this often per node. */
const QUEUE_PUSH_MS = 1_000;

export interface QualitySettings {
  /** QUALITY_CONCURRENCY: analyses one node runs at once (besides its urgent-lane worker). */
  concurrency: number;
  /** QUALITY_REANALYZE_HOURS: every active stream is analysed again after this long. */
  reanalyzeHours: number;
  /** QUALITY_RECHECK_SECONDS: a first failure is confirmed (and offline streams on screens re-checked) after this long. */
  recheckSeconds: number;
  /** FFMPEG_PATH / FFPROBE_PATH. */
  tools: MediaTools;
  /** Seconds of picture sampled. */
  sampleSeconds: number;
  /** QUALITY_SWEEP_CRON: when due streams are looked for (null: never — a test run that must stay still). */
  sweepCron: string | null;
  /** RANKED_RECHECK_*: how the ranking's candidates are kept fresh (ranking-rechecks.ts). */
  rankingBudget: RecheckBudget;
}

export const DEFAULT_QUALITY_SETTINGS: QualitySettings = {
  concurrency: 2,
  reanalyzeHours: 6,
  recheckSeconds: 20,
  tools: { ffmpeg: 'ffmpeg', ffprobe: 'ffprobe' },
  sampleSeconds: 8,
  rankingBudget: DEFAULT_RECHECK_BUDGET,
  sweepCron: '*/15 * * * *',
};

export interface QueueData {
  streamId: number;
  trigger: AnalysisTrigger;
  runId?: number | undefined;
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
  /** The streams screens show right now, cluster-wide (absent: none — an API-only node). */
  streamsOnScreens?: (() => Promise<ReadonlySet<number>>) | undefined;
}

export interface QualityJobs {
  start(): Promise<void>;
  /** Queues one analysis in its lane; false when one waits for that stream already in a lane as urgent. */
  enqueue(data: QueueData): Promise<boolean>;
  /** Queues the streams one import added (a discovery run): they share one slot per node. Returns how many were queued. */
  enqueueImport(streamIds: readonly number[], importKey: string): Promise<number>;
  /** Cancels the analyses and re-checks waiting or running for these streams (they were removed): none comes back as a retry. Returns how many. */
  forget(streamIds: readonly number[]): Promise<number>;
  /** Queues every active stream as one run. */
  analyzeAll(actor: string): Promise<QualityRun>;
  /** Runs one analysis here and now (the API's `wait: true`). */
  analyzeNow(streamId: number, trigger: AnalysisTrigger): Promise<Recorded | null>;
  /** Queues every active stream whose last analysis is older than QUALITY_REANALYZE_HOURS (the periodic sweep). */
  sweep(): Promise<void>;
  /** Queues the offline streams that are due a re-check (on screens: each period; others: with backoff). */
  recheckOffline(now?: Date): Promise<number>;
  /** The queue: waiting by lane, running, finished in the last minute. */
  status(): Promise<Omit<QualityQueueDto, 'version'>>;
  /** A screen's report about a stream's playback (from the hub). */
  playbackReport(streamId: number, state: string): void;
  /** Committed changes of other modules that concern the queue (a removed stream). */
  committed(changes: readonly DomainChange[]): void;
  stop(): void;
}

export function createQualityJobs(deps: QualityJobsDeps): QualityJobs {
  const { orm, queue, logger, settings } = deps;
  const quiet: CommandDeps = { publisher: deps.commands.publisher };
  const failingSince = new Map<number, number>();
  const lastScreenCheck = new Map<number, number>();
  let timer: NodeJS.Timeout | undefined;
  let pushTimer: NodeJS.Timeout | undefined;
  let stopped = false;
  const ctx: AnalyzerContext = {
    fetcher: deps.fetcher,
    tools: settings.tools,
    platforms: deps.platforms,
    sampleSeconds: settings.sampleSeconds,
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  };

  let shown: { at: number; ids: Promise<ReadonlySet<number>> } | undefined;
  function onScreens(): Promise<ReadonlySet<number>> {
    if (!deps.streamsOnScreens) return Promise.resolve(new Set());
    if (!shown || Date.now() - shown.at > ON_SCREEN_TTL_MS) {
      shown = { at: Date.now(), ids: deps.streamsOnScreens().catch((error: unknown) => (logger.warn({ err: error }, 'quality: could not list the streams on screens'), new Set<number>())) };
    }
    return shown.ids;
  }

  async function status(): Promise<Omit<QualityQueueDto, 'version'>> {
    const census = await queueCensus(queue, QUALITY_QUEUE, 60);
    const waiting = Object.fromEntries(QUEUE_LANES.map((lane) => [lane, 0])) as Record<QueueLane, number>;
    for (const [priority, count] of census.waiting) waiting[laneOfPriority(priority)] += count;
    return { waiting, running: census.running, per_minute: census.completed };
  }

  /** Tells admins what the queue holds now (throttled: a burst of changes is one push). */
  function announce(): void {
    if (pushTimer || stopped) return;
    pushTimer = setTimeout(() => {
      pushTimer = undefined;
      void status()
        .then((queueStatus) => deps.commands.publisher.publish([{ type: 'quality.queue', queue: queueStatus, transient: true }]))
        .catch((error: unknown) => logger.debug({ err: error }, 'quality: queue status not pushed'));
    }, QUEUE_PUSH_MS);
    pushTimer.unref();
  }

  type Insert = { data: QueueData; singletonKey: string; priority: number; group?: { id: string } };
  const jobFor = (data: QueueData, onScreen: boolean, group?: string): Insert => {
    const lane = laneOf(data.trigger, onScreen);
    return { data, singletonKey: String(data.streamId), priority: LANE_PRIORITY[lane], ...(group && lane === 'new' ? { group: { id: group } } : {}) };
  };

  /** Inserts many at once; a stream that already waits keeps its place. Returns how many were added. */
  async function insertMany(jobs: Insert[]): Promise<number> {
    let added = 0;
    for (let i = 0; i < jobs.length; i += 1000) {
      const ids = await queue.insert(QUALITY_QUEUE, jobs.slice(i, i + 1000), { returnId: true });
      added += ids?.length ?? 0;
    }
    if (jobs.length > 0) announce();
    return added;
  }

  async function enqueue(data: QueueData): Promise<boolean> {
    const job = jobFor(data, (await onScreens()).has(data.streamId));
    const options = { singletonKey: job.singletonKey, priority: job.priority };
    if (await queue.send(QUALITY_QUEUE, data, options)) return (announce(), true);
    // An analysis of this stream already waits: it keeps its place unless this one is more urgent.
    const [waiting] = await queue.findJobs<QueueData>(QUALITY_QUEUE, { key: job.singletonKey, queued: true });
    if (!waiting || waiting.priority >= job.priority) return false;
    await queue.cancel(QUALITY_QUEUE, waiting.id);
    const replaced = await queue.send(QUALITY_QUEUE, { ...data, runId: data.runId ?? waiting.data.runId }, options);
    announce();
    return replaced !== null;
  }

  async function forget(streamIds: readonly number[]): Promise<number> {
    const keys = streamIds.map(String);
    let cancelled = 0;
    for (const name of [QUALITY_QUEUE, RECHECK_QUEUE]) {
      const ids = await unfinishedJobIds(queue, name, keys);
      if (ids.length > 0) await queue.cancel(name, ids);
      cancelled += ids.length;
    }
    if (cancelled > 0) announce();
    return cancelled;
  }

  async function analyzeNow(streamId: number, trigger: AnalysisTrigger, runId?: number, signal?: AbortSignal): Promise<Recorded | null> {
    const stream = await streamById(orm.em.fork(), streamId);
    if (!stream) return null;
    // News only, nothing to write: straight to the publisher.
    await deps.commands.publisher.publish([{ type: 'quality.started', streamId, name: stream.name, ...(runId ? { runId } : {}), transient: true }]);
    const started = Date.now();
    let analysis: Parameters<typeof recordAnalysis>[3]['analysis'];
    try {
      analysis = await analyzeStream({ url: stream.url, latitude: stream.latitude ?? null, longitude: stream.longitude ?? null, headers: stream.requestHeaders ?? null }, ctx);
    } catch (error) {
      if (!(error instanceof MediaToolError)) logger.error({ err: error, streamId }, 'quality analysis failed');
      analysis = { error: error instanceof Error ? error.message : String(error) };
    }
    // The queue took the job back (this node is stopping): another node analyses it again.
    if (signal?.aborted) return null;
    const outcome = 'error' in analysis ? 'failed' : analysis.measurements.reachable === false ? 'unreachable' : 'scored';
    analyses.inc({ outcome });
    analysisDuration.observe({ outcome }, (Date.now() - started) / 1000);
    const since = failingSince.get(streamId);
    const screensFailing = since !== undefined && Date.now() - since >= SCREEN_ERROR_SECONDS * 1000;
    const recorded = await runCommand(orm.em.fork(), quiet, ACTOR, async (tx, changes) => {
      const done = await recordAnalysis(tx, changes, streamId, { analysis, trigger, durationMs: Date.now() - started, screensFailing, runId });
      if (runId) await countInRun(tx, runId, !done?.result || done.result.faults.includes('unreachable'));
      return done;
    });
    // A first failure is confirmed soon (offline takes two).
    if (recorded?.result?.faults.includes('unreachable') && recorded.stream.failedChecks < 2) {
      await queue.send(RECHECK_QUEUE, { streamId }, { singletonKey: String(streamId), startAfter: settings.recheckSeconds }).catch(() => undefined);
    }
    announce();
    return recorded;
  }

  async function sweep(): Promise<void> {
    const due = new Date(Date.now() - settings.reanalyzeHours * 3600_000);
    const streams = await streamsAssessedBefore(orm.em.fork(), due);
    const shownNow = await onScreens();
    await insertMany(streams.map((id) => jobFor({ streamId: id, trigger: 'schedule' }, shownNow.has(id))));
  }

  async function recheckOffline(now = new Date()): Promise<number> {
    const offline = await offlineStreams(orm.em.fork());
    if (offline.length === 0) return 0;
    const shownNow = await onScreens();
    const due = offline.filter((s) => offlineRecheckDue({ ...s, onScreen: shownNow.has(s.id) }, now));
    return insertMany(due.map((s) => jobFor({ streamId: s.id, trigger: 'recheck' }, shownNow.has(s.id))));
  }

  const analyze = async ([job]: { data: QueueData; signal: AbortSignal }[]) => {
    if (job) await analyzeNow(job.data.streamId, job.data.trigger, job.data.runId, job.signal);
  };

  return {
    async start() {
      const options = { policy: 'stately' as const, retryLimit: 1, retryDelay: 5, expireInSeconds: 300, heartbeatSeconds: deps.heartbeatSeconds, deleteAfterSeconds: 24 * 3600, notify: true };
      await queue.createQueue(QUALITY_QUEUE, options);
      await queue.updateQueue(QUALITY_QUEUE, { notify: true });
      await queue.createQueue(RECHECK_QUEUE, { policy: 'stately', retryLimit: 1 });
      await queue.createQueue(SWEEP_QUEUE, { policy: 'singleton' });
      if (settings.sweepCron) await queue.schedule(SWEEP_QUEUE, settings.sweepCron, {}, { tz: 'UTC' });
      else await queue.unschedule(SWEEP_QUEUE);
      if (deps.work) {
        // The urgent lanes' own worker: an admin's request or a failing wall never waits behind a backlog.
        await queue.work<QueueData>(QUALITY_QUEUE, { batchSize: 1, localConcurrency: 1, pollingIntervalSeconds: 1, notifyPollingIntervalSeconds: 1, minPriority: URGENT_PRIORITY }, analyze);
        // Every lane, highest first; one import's streams take one slot of a node at a time. (pg-boss's
        // cluster-wide group limit lets a node's own workers race past it when they fetch at the same
        // moment; the node's limit is exact, and bounds an import at one analysis per node.)
        await queue.work<QueueData>(QUALITY_QUEUE, { batchSize: 1, localConcurrency: settings.concurrency, pollingIntervalSeconds: 1, notifyPollingIntervalSeconds: 1, localGroupConcurrency: 1 }, analyze);
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

    async enqueueImport(streamIds, importKey) {
      const shownNow = await onScreens();
      return insertMany(streamIds.map((streamId) => jobFor({ streamId, trigger: 'discovery' }, shownNow.has(streamId), importKey)));
    },

    forget,

    async analyzeAll(actor) {
      const streams = await activeStreams(orm.em.fork());
      const run = await runCommand(orm.em.fork(), deps.commands, actor, async (tx, changes) => {
        const created = tx.create(QualityRun, { total: streams.length, startedBy: actor, ...(streams.length === 0 ? { finishedAt: new Date() } : {}) });
        await tx.flush();
        changes.push({ type: 'quality.queued', runId: created.id, name: `${streams.length} streams` });
        return created;
      });
      const shownNow = await onScreens();
      const added = await insertMany(streams.map((s) => jobFor({ streamId: s.id, trigger: 'all', runId: run.id }, shownNow.has(s.id))));
      // A stream already waiting for its analysis is counted as done by this run: it will be analysed anyway.
      const skipped = streams.length - added;
      if (skipped > 0) {
        await orm.em.fork().execute('update quality_runs set total = total - ?, finished_at = case when done >= total - ? then now() else null end where id = ?', [skipped, skipped, run.id], 'run');
      }
      return orm.em.fork().findOneOrFail(QualityRun, { id: run.id });
    },

    analyzeNow: (streamId, trigger) => analyzeNow(streamId, trigger),

    sweep,

    recheckOffline,

    status,

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

    committed(changes) {
      const removed = changes.flatMap((c) => (c.type === 'stream.deleted' ? [c.streamId] : []));
      if (removed.length === 0) return;
      for (const id of removed) {
        failingSince.delete(id);
        lastScreenCheck.delete(id);
      }
      void forget(removed).catch((error: unknown) => logger.warn({ err: error }, 'quality: could not cancel the analyses of removed streams'));
    },

    stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      if (pushTimer) clearTimeout(pushTimer);
    },
  };
}
