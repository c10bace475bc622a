/**
 * What an admin asks of the analyzer, and the rules that answer: a fresh analysis is answered
 * as it is unless forced, and one "analyze all" runs at a time.
 */
import type { EntityManager } from '../../db.ts';
import { conflict } from '../../domain/errors.ts';
import type { AnalyzeDto } from '../../shared/api/quality.ts';
import { findStream } from '../streams/streams.service.ts';
import type { QualityRun } from './quality.entity.ts';
import type { QualityJobs } from './quality.jobs.ts';
import { presentAnalysis } from './quality.presenter.ts';
import { latestRun, listAnalyses } from './quality.service.ts';

/** An analysis younger than this answers a request without `force`. */
const FRESH_MS = 60_000;
/** An "analyze all" that has not finished within this long no longer blocks a new one. */
const RUN_STALE_MS = 3600_000;

/**
 * An admin's request to analyse one stream (spec §7): a fresh analysis answers it unless forced;
 * `wait` runs it here and now; otherwise it is queued in the admin's lane.
 */
export async function requestAnalysis(em: EntityManager, jobs: QualityJobs, input: { streamId: number; force: boolean; wait: boolean }): Promise<AnalyzeDto> {
  const stream = await findStream(em, input.streamId);
  if (!input.force) {
    const [last] = await listAnalyses(em, stream.id, 1);
    if (last && Date.now() - last.createdAt.getTime() < FRESH_MS) return { queued: false, analysis: presentAnalysis(last) };
  }
  if (input.wait) {
    const recorded = await jobs.analyzeNow(stream.id, 'manual');
    return { queued: false, analysis: recorded ? presentAnalysis(recorded.row) : null };
  }
  await jobs.enqueue({ streamId: stream.id, trigger: 'manual' });
  return { queued: true, analysis: null };
}

/** Every active stream, as one run; refused while another run is under way. */
export async function startAnalyzeAll(em: EntityManager, jobs: QualityJobs, actor: string): Promise<QualityRun> {
  const latest = await latestRun(em);
  if (latest && !latest.finishedAt && Date.now() - latest.startedAt.getTime() < RUN_STALE_MS) throw conflict('An analysis of all streams is already running');
  return jobs.analyzeAll(actor);
}
