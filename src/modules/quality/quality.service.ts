/**
 * Quality commands and queries: recording an analysis (history row, the stream's score fields,
 * its health with hysteresis) and reading the history and the "analyze all" runs.
 */
import type { EntityManager } from '../../db.ts';
import type { Changes } from '../../domain/changes.ts';
import { scoreQuality, type QualityResult } from '../../shared/quality/score.ts';
import type { Stream } from '../streams/stream.entity.ts';
import { streamById } from '../streams/stream-reads.ts';
import { recordCheck } from '../streams/stream-quality.ts';
import { recordStill } from '../streams/stream-stills.ts';
import type { Analysis } from './analyzer/index.ts';
import { packFrames } from './analyzer/replay.ts';
import { judgeActivity, localHour } from '../../shared/quality/activity.ts';
import { activityAround } from './activity-queries.ts';
import { checkForLoop, forgetOldPrints } from './loop-check.ts';
import { QualityAnalysis, QualityRun, type AnalysisTrigger } from './quality.entity.ts';

export interface AnalysisOutcome {
  /** What was measured, or why nothing could be (ffmpeg missing): then the stream keeps its score. */
  analysis: Analysis | { error: string };
  trigger: AnalysisTrigger;
  durationMs: number;
  /** Screens have reported this stream failing for 30 s or more. */
  screensFailing?: boolean;
  /** The "analyze all" run this analysis belongs to. */
  runId?: number | undefined;
  /** When it was taken (epoch ms; tests pin it). */
  at?: number;
}

export interface Recorded {
  row: QualityAnalysis;
  result: QualityResult | null;
  stream: Stream;
  healthChanged: boolean;
}

const runOf = (outcome: AnalysisOutcome) => (outcome.runId ? { runId: outcome.runId } : {});

/**
 * Records one analysis: its history row here, and — through the streams module, the one writer
 * of the streams row and its still — the stream's automatic score, its fused score, its health
 * and the picture the analysis took.
 */
export async function recordAnalysis(tx: EntityManager, changes: Changes, streamId: number, outcome: AnalysisOutcome): Promise<Recorded | null> {
  if ('error' in outcome.analysis) {
    // Nothing was measured (ffmpeg missing): the history says why; the stream keeps its score.
    const stream = await streamById(tx, streamId);
    if (!stream) return null;
    const row = tx.create(QualityAnalysis, { stream, error: outcome.analysis.error.slice(0, 1000), trigger: outcome.trigger, durationMs: outcome.durationMs });
    await tx.flush();
    changes.push({ type: 'quality.analyzed', streamId, analysisId: row.id, name: stream.name, ...runOf(outcome), transient: true });
    return { row, result: null, stream, healthChanged: false };
  }
  const { metrics } = outcome.analysis;
  const now = outcome.at ?? Date.now();
  const before = await streamById(tx, streamId);
  if (!before) return null;
  const hour = localHour(now, before.timezone, before.longitude);
  // A recording posing as live: against this sample itself and the day's earlier ones.
  const print = outcome.analysis.fingerprint ?? null;
  const loop = await checkForLoop(tx, streamId, print, outcome.analysis.edgeProgramTime ?? null, now);
  // Looped, not (it showed its frames differ from every earlier run), or can't tell (null).
  const looped = loop.evidence ? !before.recordingOk : print && !loop.telling ? null : false;
  const measurements = { ...outcome.analysis.measurements, looped };
  const result = scoreQuality(measurements);
  if (loop.evidence && before.recordingOk) result.notes.push('looped recording (marked fine)');
  // What is happening now, against the camera's normal at this hour (or its category's).
  const activity = measurements.activity ?? null;
  const history = activity === null ? { own: [], category: [] } : await activityAround(tx, before, hour, now);
  const judged = judgeActivity(activity, history.own, history.category);
  const checked = await recordCheck(tx, changes, streamId, {
    score: result.score,
    confidence: result.confidence,
    faults: result.faults,
    screensFailing: outcome.screensFailing ?? false,
    playback: outcome.analysis.playback,
    activity: measurements.method === 'sample' || measurements.method === 'api' || measurements.method === 'oembed' ? { value: activity, ratio: judged.ratio, basis: judged.basis, at: new Date(now) } : undefined,
    looped: loop.evidence ?? (loop.telling ? null : undefined),
  });
  if (!checked) return null;
  // The picture it took replaces the stream's still; without one (unreachable, a still that could not be taken) the last one stays.
  if (outcome.analysis.still) await recordStill(tx, streamId, outcome.analysis.still);
  const row = tx.create(QualityAnalysis, {
    stream: checked.stream,
    score: result.score,
    confidence: result.confidence,
    method: measurements.method,
    faults: result.faults,
    metrics: { ...metrics, notes: result.notes },
    error: measurements.error ?? null,
    trigger: outcome.trigger,
    durationMs: outcome.durationMs,
    activity,
    localHour: hour,
    dark: measurements.reachable ? (measurements.blackRatio ?? 0) > 0.5 || measurements.night === true : null,
    fingerprint: print ? packFrames(print) : null,
    fingerprintFps: print?.fps ?? null,
    fingerprintSegments: print?.segments ?? null,
    edgeProgramTime: outcome.analysis.edgeProgramTime ? new Date(outcome.analysis.edgeProgramTime) : null,
  });
  if (loop.evidence) row.metrics = { ...row.metrics, looped: loop.evidence };
  if (activity !== null) row.metrics = { ...row.metrics, activity: { value: activity, ratio: judged.ratio, basis: judged.basis, eventful: judged.eventful } };
  await tx.flush();
  if (print) await forgetOldPrints(tx, streamId, now);
  changes.push({ type: 'quality.analyzed', streamId, analysisId: row.id, name: checked.stream.name, ...runOf(outcome), transient: true });
  return { row, result, stream: checked.stream, healthChanged: checked.healthChanged };
}

/** Analyses in the last `windowMs` before `now`: how many could not run, of how many (what alerts watch). */
export async function analysisFailures(em: EntityManager, now: number, windowMs: number): Promise<{ failed: number; total: number }> {
  const [counts] = await em.execute<{ failed: number; total: number }[]>(
    'select count(*) filter (where error is not null)::int as failed, count(*)::int as total from quality_analyses where created_at > ?',
    [new Date(now - windowMs)],
  );
  return { failed: counts?.failed ?? 0, total: counts?.total ?? 0 };
}

export function listAnalyses(em: EntityManager, streamId: number, limit: number): Promise<QualityAnalysis[]> {
  return em.find(QualityAnalysis, { stream: streamId }, { orderBy: { createdAt: 'desc', id: 'desc' }, limit });
}

export async function latestRun(em: EntityManager): Promise<QualityRun | null> {
  const [run] = await em.find(QualityRun, {}, { orderBy: { id: 'desc' }, limit: 1 });
  return run ?? null;
}

/** Counts one finished analysis of a run; the run ends when every stream has been done. */
export async function countInRun(tx: EntityManager, runId: number, failed: boolean): Promise<QualityRun | null> {
  await tx.execute(
    `update quality_runs set done = done + 1, failed = failed + ?, finished_at = case when done + 1 >= total then now() else finished_at end where id = ?`,
    [failed ? 1 : 0, runId],
    'run',
  );
  return tx.findOne(QualityRun, { id: runId }, { refresh: true });
}

