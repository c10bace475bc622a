/** Automatic quality analysis (spec §7 "Quality and discovery"). */
import { z } from 'zod';
import { Id } from './common.ts';
import type { QueueLane } from '../quality/queue.ts';

export const QualityQuery = z.object({
  action: z.enum(['analyze', 'analyze-all'], { error: 'Unknown action; use ?action=analyze or ?action=analyze-all' }),
});

/** analyze: {streamId, force?, wait?}; analyze-all: nothing. */
export const AnalyzeRequest = z.object({
  streamId: Id.optional(),
  /** Analyse again even when a fresh analysis exists. */
  force: z.boolean().default(false),
  /** Answer when the analysis is done (otherwise it is queued). */
  wait: z.boolean().default(false),
});
export type AnalyzeRequest = z.output<typeof AnalyzeRequest>;

export const AnalysesQuery = z.object({
  streamId: Id,
  limit: z.coerce.number().int().min(1).max(100).default(20),
});

export interface QualityAnalysisDto {
  id: number;
  stream_id: number;
  created_at: string;
  score: number | null;
  confidence: number | null;
  method: string | null;
  faults: string[];
  metrics: Record<string, unknown>;
  error: string | null;
  duration_ms: number | null;
  trigger: string;
}

export interface QualityRunDto {
  id: number;
  total: number;
  done: number;
  failed: number;
  started_by: string;
  started_at: string;
  finished_at: string | null;
}

export interface AnalyzeDto {
  /** Queued for the worker (false: answered with an analysis). */
  queued: boolean;
  analysis: QualityAnalysisDto | null;
}

export interface AnalyzeAllDto {
  run: QualityRunDto;
}

export interface QualityProgressDto {
  version: number;
  run: QualityRunDto | null;
  stream_id: number | null;
  stream_name: string | null;
  status: 'queued' | 'analyzing' | 'done' | 'failed';
  analysis: QualityAnalysisDto | null;
}

/** The analysis queue as the Streams tab shows it (GET /api/quality/queue, and pushed as `quality:queue`). */
export interface QualityQueueDto {
  version: number;
  /** Analyses waiting, by lane (highest priority first). */
  waiting: Record<QueueLane, number>;
  running: number;
  /** Analyses finished in the last minute, cluster-wide. */
  per_minute: number;
}
