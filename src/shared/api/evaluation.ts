/** Human evaluation (spec §7 "Human evaluation"): anonymous raters, the queue, ratings, stats. */
import { z } from 'zod';
import type { Category } from '../constants.ts';
import { Id } from './common.ts';

/** A random id per page session (`evaluator_<uuid>` from the page). */
export const EvaluatorId = z.string({ error: 'evaluatorId is required' }).regex(/^[A-Za-z0-9_-]{8,80}$/, 'evaluatorId must be 8-80 letters, digits, - or _');

export const EvaluationQuery = z.object({
  action: z.enum(['queue-status', 'leaderboard', 'next', 'stats', 'submit', 'skip'], { error: 'Unknown action' }),
  evaluatorId: EvaluatorId.optional(),
});

const rating = (name: string) => z.number({ error: `${name} must be a whole number from 1 to 5` }).int(`${name} must be a whole number from 1 to 5`).min(1, `${name} must be from 1 to 5`).max(5, `${name} must be from 1 to 5`);

/** submit: the ratings (the page sends its one rating as all of them, spec §5); skip: `skipped: true`. */
export const EvaluationSubmit = z.union([
  z.object({
    queueId: Id,
    evaluatorId: EvaluatorId,
    skipped: z.literal(true),
    durationMs: z.number().int().min(0).max(3_600_000).optional(),
  }),
  z.object({
    queueId: Id,
    evaluatorId: EvaluatorId,
    videoQuality: rating('videoQuality'),
    movement: rating('movement'),
    content: rating('content'),
    audio: rating('audio').nullable().optional(),
    overall: rating('overall'),
    durationMs: z.number().int().min(0).max(3_600_000).optional(),
    skipped: z.literal(false).optional(),
  }),
], { error: 'Give queueId, evaluatorId and ratings from 1 to 5 (or skipped: true)' });
export type EvaluationSubmit = z.output<typeof EvaluationSubmit>;

export interface QueueStatusDto {
  pending: number;
  completedToday: number;
}

export interface LeaderboardEntryDto {
  /** `evaluator_` and the id's last 4 characters: shown as 'Anonymous abcd', never the whole id. */
  evaluator: string;
  count: number;
}

export interface EvaluationItemDto {
  queueId: number;
  streamId: number;
  streamUrl: string;
  fallbackUrl: string | null;
  streamName: string;
  category: Category;
  priority: number;
  reason: string;
  previousEvaluations: number;
}

export interface EvaluatorStatsDto {
  totalEvaluations: number;
  evaluationsToday: number;
  evaluationsThisWeek: number;
  streamsEvaluated: number;
  averageTimeMs: number;
  skipRate: number;
}

export interface SubmitEvaluationDto {
  success: true;
  evaluationId: number;
  /** The rater had already rated (or skipped) this item: nothing new was recorded. */
  duplicate: boolean;
}

export interface RecentEvaluationDto {
  streamId: number;
  streamName: string;
  evaluationCount: number;
  /** 0–1 */
  confidence: number;
  /** 0–5 */
  weightedScore: number;
}

export interface RaterReliabilityDto {
  evaluator: string;
  ratings: number;
  weight: number;
}
