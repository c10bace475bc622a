/**
 * Discovery commands and queries: sources (CRUD), runs (one source, or every active source),
 * jobs and per-source stats. Runs are rows first (`queued`), then queue jobs (discovery.jobs.ts);
 * the database refuses a second queued or running job for the same source, whoever asks.
 */
import { CronExpressionParser } from 'cron-parser';
import { SCHEDULE_RULE } from '../../shared/api/discovery.ts';
import type { EntityManager } from '../../db.ts';
import type { Changes } from '../../domain/changes.ts';
import { conflict, invalid, notFound } from '../../domain/errors.ts';
import { SOURCE_CONFIGS, type SourceInput } from '../../shared/api/discovery.ts';
import { NOT_ALLOWED, type JobTrigger } from '../../shared/constants.ts';
import type { SourceSpec } from './adapters/adapter.ts';
import { DiscoveryJob, DiscoverySource, DiscoveryStat } from './discovery.entity.ts';

const NO_SOURCES = 'There are no active sources to run';
const RUN_IN_PROGRESS = 'A discovery run is already in progress; wait for it to finish';
const ACTIVE = ['queued', 'running'] as const;

export function listSources(em: EntityManager): Promise<DiscoverySource[]> {
  return em.find(DiscoverySource, {}, { orderBy: { name: 'asc' } });
}

/** The newest jobs first, with their source. */
export function listJobs(em: EntityManager, limit: number): Promise<DiscoveryJob[]> {
  return em.find(DiscoveryJob, {}, { populate: ['source'], orderBy: { createdAt: 'desc', id: 'desc' }, limit });
}

export function listStats(em: EntityManager): Promise<DiscoveryStat[]> {
  return em.find(DiscoveryStat, {}, { orderBy: { sourceName: 'asc' } });
}

export interface FailedDiscovery {
  sourceId: number;
  sourceName: string;
  error: string | null;
  finishedAt: Date;
}

/** Sources whose latest finished run failed (a failure stands until a run of it succeeds): what alerts watch. */
export async function failedDiscoveries(em: EntityManager): Promise<FailedDiscovery[]> {
  const latest = await em.execute<{ source_id: number; name: string; status: string; error_message: string | null; finished_at: Date }[]>(
    `select distinct on (j.source_id) j.source_id, s.name, j.status, j.error_message, j.finished_at
       from discovery_jobs j join discovery_sources s on s.id = j.source_id
      where j.finished_at is not null order by j.source_id, j.finished_at desc`,
  );
  return latest.filter((r) => r.status === 'failed').map((r) => ({ sourceId: r.source_id, sourceName: r.name, error: r.error_message, finishedAt: new Date(r.finished_at) }));
}

export async function findSource(em: EntityManager, id: number): Promise<DiscoverySource> {
  const source = await em.findOne(DiscoverySource, { id });
  if (!source) throw notFound(`Discovery source not found: ${id}`);
  return source;
}

/** A cron expression the scheduler can evaluate, or a readable 400. */
function checkSchedule(schedule: string | null): void {
  if (!schedule) return;
  try {
    CronExpressionParser.parse(schedule, { tz: 'UTC', strict: false });
  } catch (error) {
    // The document states the rule; the parser's own words follow it.
    throw invalid(`schedule: ${SCHEDULE_RULE} (${error instanceof Error ? error.message : 'not a valid cron expression'})`);
  }
}

/** A source's address passes the address policy (a crawl or playlist of a private host is refused before it is stored). */
function checkAddress(input: SourceInput, allows: (url: string) => boolean): void {
  if (input.url && !allows(input.url)) throw invalid(`url: ${NOT_ALLOWED}`);
}

export async function createSource(em: EntityManager, changes: Changes, input: SourceInput, allows: (url: string) => boolean): Promise<DiscoverySource> {
  checkSchedule(input.schedule);
  checkAddress(input, allows);
  const source = em.create(DiscoverySource, { ...input });
  await em.flush();
  changes.push({ type: 'discovery.created', sourceId: source.id, name: source.name });
  return source;
}

export async function updateSource(em: EntityManager, changes: Changes, id: number, input: SourceInput, allows: (url: string) => boolean): Promise<DiscoverySource> {
  checkSchedule(input.schedule);
  checkAddress(input, allows);
  const source = await findSource(em, id);
  em.assign(source, { ...input });
  await em.flush();
  changes.push({ type: 'discovery.updated', sourceId: source.id, name: source.name });
  return source;
}

export async function deleteSource(em: EntityManager, changes: Changes, id: number): Promise<void> {
  const source = await findSource(em, id);
  if (await em.count(DiscoveryJob, { source: id, status: { $in: [...ACTIVE] } })) throw conflict('This source is running; delete it once its run has finished');
  em.remove(source);
  await em.flush();
  changes.push({ type: 'discovery.deleted', sourceId: id, name: source.name });
}

/** A source as the adapters see it; a config stored before a schema change is checked again here. */
export function specOf(source: DiscoverySource): SourceSpec {
  const config = SOURCE_CONFIGS[source.platform].safeParse(source.config);
  if (!config.success) throw invalid(`The source's settings are no longer valid: ${config.error.issues[0]?.message ?? 'edit and save it again'}`);
  return { id: source.id, name: source.name, platform: source.platform, url: source.url ?? null, config: config.data } as SourceSpec;
}

async function queueJob(em: EntityManager, changes: Changes, source: DiscoverySource, trigger: JobTrigger, options: Record<string, unknown>): Promise<DiscoveryJob> {
  const job = em.create(DiscoveryJob, { source, trigger, options, status: 'queued' });
  await em.flush(); // the one-active-job-per-source index answers a second run with 409
  changes.push({ type: 'discovery.started', jobId: job.id, sourceId: source.id, name: source.name });
  return job;
}

/** POST /api/discovery?action=run {sourceId}: a queued job for that source. */
export async function queueRun(em: EntityManager, changes: Changes, sourceId: number, options: Record<string, unknown>, trigger: JobTrigger = 'manual'): Promise<DiscoveryJob> {
  const source = await findSource(em, sourceId);
  if (!source.active) throw conflict('This source is inactive; activate it to run it');
  specOf(source);
  return queueJob(em, changes, source, trigger, options);
}

/** POST /api/discovery?action=run {runAll: true}: a queued job for every active source, unless a run is in progress. */
export async function queueRunAll(em: EntityManager, changes: Changes): Promise<DiscoveryJob[]> {
  const sources = await em.find(DiscoverySource, { active: true }, { orderBy: { name: 'asc' } });
  if (sources.length === 0) throw conflict(NO_SOURCES);
  if (await em.count(DiscoveryJob, { status: { $in: [...ACTIVE] } })) throw conflict(RUN_IN_PROGRESS);
  const jobs: DiscoveryJob[] = [];
  for (const source of sources) jobs.push(await queueJob(em, changes, source, 'run-all', {}));
  return jobs;
}
