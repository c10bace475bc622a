import type { QualityAnalysisDto, QualityRunDto } from '../../shared/api/quality.ts';
import type { QualityAnalysis, QualityRun } from './quality.entity.ts';

export function presentAnalysis(a: QualityAnalysis): QualityAnalysisDto {
  return {
    id: a.id,
    stream_id: a.stream.id,
    created_at: a.createdAt.toISOString(),
    score: a.score ?? null,
    confidence: a.confidence ?? null,
    method: a.method ?? null,
    faults: a.faults,
    notes: Array.isArray(a.metrics.notes) ? a.metrics.notes.filter((n): n is string => typeof n === 'string') : [],
    metrics: a.metrics,
    error: a.error ?? null,
    duration_ms: a.durationMs ?? null,
    trigger: a.trigger,
    activity: a.activity ?? null,
  };
}

export function presentRun(r: QualityRun): QualityRunDto {
  return {
    id: r.id,
    total: r.total,
    done: r.done,
    failed: r.failed,
    started_by: r.startedBy,
    started_at: r.startedAt.toISOString(),
    finished_at: r.finishedAt ? r.finishedAt.toISOString() : null,
  };
}
