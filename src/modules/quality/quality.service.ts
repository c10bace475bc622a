/**
 * Quality commands and queries: recording an analysis (history row, the stream's score fields,
 * its health with hysteresis) and reading the history and the "analyze all" runs.
 */
import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '../../db.ts';
import type { Changes } from '../../domain/changes.ts';
import { nextHealth } from '../../shared/quality/health.ts';
import { scoreQuality, type QualityResult } from '../../shared/quality/score.ts';
import { fuseScores } from '../../shared/evaluation/reliability.ts';
import { Stream } from '../streams/stream.entity.ts';
import type { Analysis } from './analyzer/index.ts';
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
}

export interface Recorded {
  row: QualityAnalysis;
  result: QualityResult | null;
  stream: Stream;
  healthChanged: boolean;
}

const runOf = (outcome: AnalysisOutcome) => (outcome.runId ? { runId: outcome.runId } : {});

export async function recordAnalysis(tx: EntityManager, changes: Changes, streamId: number, outcome: AnalysisOutcome): Promise<Recorded | null> {
  // Locked: two verdicts on one stream (a screen-triggered check and a sweep) apply one after the other.
  const stream = await tx.findOne(Stream, { id: streamId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
  if (!stream) return null;
  if ('error' in outcome.analysis) {
    const row = tx.create(QualityAnalysis, { stream, error: outcome.analysis.error.slice(0, 1000), trigger: outcome.trigger, durationMs: outcome.durationMs });
    await tx.flush();
    changes.push({ type: 'quality.analyzed', streamId, analysisId: row.id, name: stream.name, ...runOf(outcome), transient: true });
    return { row, result: null, stream, healthChanged: false };
  }
  const { measurements, metrics } = outcome.analysis;
  const result = scoreQuality(measurements);
  const row = tx.create(QualityAnalysis, {
    stream,
    score: result.score,
    confidence: result.confidence,
    method: measurements.method,
    faults: result.faults,
    metrics: { ...metrics, notes: result.notes },
    error: measurements.error ?? null,
    trigger: outcome.trigger,
    durationMs: outcome.durationMs,
  });
  const health = nextHealth({ current: stream.health, failedChecks: stream.failedChecks, faults: result.faults, screensFailing: outcome.screensFailing ?? false });
  const healthChanged = health.health !== stream.health;
  // The automatic half; the stream's quality is it fused with the human half (src/shared/evaluation/reliability.ts).
  stream.autoScore = result.score;
  stream.autoConfidence = result.confidence;
  const fused = fuseScores({ score: result.score, confidence: result.confidence }, { score: stream.humanScore ?? null, confidence: stream.humanConfidence ?? null });
  stream.qualityScore = fused.score;
  stream.qualityConfidence = fused.confidence;
  stream.qualityAssessedAt = new Date();
  stream.failedChecks = health.failedChecks;
  if (healthChanged) {
    stream.health = health.health;
    stream.healthChangedAt = new Date();
  }
  await tx.flush();
  // stream.updated: admins see the new score and health, and the scenes showing it (or choosing among the pool) re-resolve.
  changes.push({ type: 'stream.updated', streamId, name: stream.name });
  changes.push({ type: 'quality.analyzed', streamId, analysisId: row.id, name: stream.name, ...runOf(outcome), transient: true });
  return { row, result, stream, healthChanged };
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
