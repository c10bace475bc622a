/** Human evaluation (spec §7 "Human evaluation"): anonymous raters, the queue, ratings, stats. */
import { z } from 'zod';
import { CATEGORIES } from '../constants.ts';
import { Id } from './common.ts';
import { endpoint } from './contract.ts';
import { ROUTES } from './routes.ts';

/** A random id per page session (`evaluator_<uuid>` from the page). */
export const EvaluatorId = z.string({ error: 'evaluatorId is required' }).regex(/^[A-Za-z0-9_-]{8,80}$/, 'evaluatorId must be 8-80 letters, digits, - or _');

/** Said in the document and by the refusals (a refusal names only rules the document states). */
export const NEXT_PAIR_RULE = 'a pair is leased to a rater, so next-pair needs one';
export const COMPARE_RULE = 'a comparison is answered with ?action=compare';
export const CHOICE_RULE = 'a comparison (?action=compare) carries choice: left, right, same or skip';

export const EvaluationQuery = z.object({
  action: z.enum(['queue-status', 'leaderboard', 'next', 'next-pair', 'stats', 'submit', 'skip', 'compare'], { error: 'Unknown action' }),
  evaluatorId: EvaluatorId.optional().describe(`The rater asking (next, next-pair, stats); a rater without one is served as a new rater (${NEXT_PAIR_RULE})`),
});

const rating = (name: string) => z.number({ error: `${name} must be a whole number from 1 to 5` }).int(`${name} must be a whole number from 1 to 5`).min(1, `${name} must be from 1 to 5`).max(5, `${name} must be from 1 to 5`);

/** Said in the document and by the refusal. */
export const SKIP_RULE = 'a skip (?action=skip) carries skipped: true';

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
    skipped: z.literal(false).optional().describe(`Not a skip: ${SKIP_RULE}`),
  }),
], { error: 'Give queueId, evaluatorId and ratings from 1 to 5 (or skipped: true)' });
export type EvaluationSubmit = z.output<typeof EvaluationSubmit>;

/** compare: the answer to "Which looks better?" for a pair leased to this rater. */
export const PairSubmit = z.object({
  queueId: Id,
  evaluatorId: EvaluatorId,
  choice: z.enum(['left', 'right', 'same', 'skip'], { error: 'choice must be left, right, same or skip' }).describe('left / right: that one looks better; same: about the same; skip: cannot tell'),
  durationMs: z.number().int().min(0).max(3_600_000).optional(),
}).describe(`${CHOICE_RULE}; ${COMPARE_RULE}, never with submit or skip`);
export type PairSubmit = z.output<typeof PairSubmit>;


export const QueueStatusDto = z.strictObject({
  pending: z.number().int(),
  completedToday: z.number().int(),
});
export type QueueStatusDto = z.output<typeof QueueStatusDto>;

export const LeaderboardEntryDto = z.strictObject({
  evaluator: z.string().describe('`evaluator_` and the id\'s last 4 characters: shown as \'Anonymous abcd\', never the whole id'),
  count: z.number().int(),
});
export type LeaderboardEntryDto = z.output<typeof LeaderboardEntryDto>;

export const EvaluationItemDto = z.strictObject({
  queueId: z.number().int(),
  streamId: z.number().int(),
  streamUrl: z.string(),
  fallbackUrl: z.string().nullable(),
  streamName: z.string(),
  category: z.enum(CATEGORIES),
  priority: z.number().int(),
  reason: z.string(),
  previousEvaluations: z.number().int(),
});
export type EvaluationItemDto = z.output<typeof EvaluationItemDto>;

const PairSide = z.strictObject({
  streamId: z.number().int(),
  streamUrl: z.string(),
  fallbackUrl: z.string().nullable(),
  streamName: z.string(),
  category: z.enum(CATEGORIES),
});

/** "Which looks better?": two streams leased to one rater, shown side by side. */
export const PairItemDto = z.strictObject({
  queueId: z.number().int(),
  kind: z.literal('compare'),
  left: PairSide,
  right: PairSide,
  reason: z.string(),
});
export type PairItemDto = z.output<typeof PairItemDto>;

export const EvaluatorStatsDto = z.strictObject({
  totalEvaluations: z.number().int(),
  evaluationsToday: z.number().int(),
  evaluationsThisWeek: z.number().int(),
  streamsEvaluated: z.number().int(),
  averageTimeMs: z.number().int(),
  skipRate: z.number().describe('0–1'),
});
export type EvaluatorStatsDto = z.output<typeof EvaluatorStatsDto>;

export const SubmitEvaluationDto = z.strictObject({
  success: z.literal(true),
  evaluationId: z.number().int(),
  duplicate: z.boolean().describe('The rater had already rated (or skipped) this item: nothing new was recorded'),
});
export type SubmitEvaluationDto = z.output<typeof SubmitEvaluationDto>;

export const RecentEvaluationDto = z.strictObject({
  streamId: z.number().int(),
  streamName: z.string(),
  evaluationCount: z.number().int(),
  confidence: z.number().describe('0–1'),
  weightedScore: z.number().describe('0–5'),
});
export type RecentEvaluationDto = z.output<typeof RecentEvaluationDto>;

export const RaterReliabilityDto = z.strictObject({
  evaluator: z.string(),
  ratings: z.number().int().describe('Answers of both kinds (ratings and comparisons)'),
  weight: z.number(),
  agreement: z.number().describe('0–1: how well their answers agree with everyone else\'s consensus'),
  standing: z.enum(['new', 'regular', 'trusted']).describe('new: fewer answers than it takes to be judged (gets checks first); trusted: gets contested items first'),
});
export type RaterReliabilityDto = z.output<typeof RaterReliabilityDto>;

/** An item still waiting for judgements, and why (the Ratings tab). */
export const WaitingItemDto = z.strictObject({
  queueId: z.number().int(),
  kind: z.enum(['rate', 'check', 'compare']),
  streamId: z.number().int(),
  streamName: z.string(),
  partnerName: z.string().nullable().describe('The other stream of a pair'),
  reason: z.string(),
  priority: z.number().int(),
  answers: z.number().int().describe('Ratings and comparisons the stream has had'),
  confidence: z.number().describe('Its human confidence now (0–1); it leaves the queue at the target'),
});
export type WaitingItemDto = z.output<typeof WaitingItemDto>;

export const evaluationEndpoints = {
  read: endpoint({
    ...ROUTES['evaluation.read'],
    summary: 'Anonymous raters: ?action=queue-status | leaderboard | stats | next | next-pair (404 with queueEmpty when nothing is left); rate-limited per IP',
    access: 'public',
    query: EvaluationQuery,
    responses: { 200: z.union([QueueStatusDto, z.array(LeaderboardEntryDto), EvaluatorStatsDto, EvaluationItemDto, PairItemDto]) },
    errors: [404, 405, 429],
  }),
  submit: endpoint({
    ...ROUTES['evaluation.submit'],
    summary: 'Anonymous raters: ?action=submit (the ratings) | skip (skipped: true) | compare (a pair\'s choice), for an item leased to this rater (409 otherwise); rate-limited per IP',
    access: 'public',
    query: EvaluationQuery,
    body: z.union([...EvaluationSubmit.options, PairSubmit], { error: 'Give queueId, evaluatorId and ratings from 1 to 5, skipped: true, or a pair\'s choice' }),
    responses: { 200: SubmitEvaluationDto },
    errors: [404, 405, 409, 429],
  }),
  waiting: endpoint({ ...ROUTES['evaluation.waiting'], summary: 'Items still waiting for judgements, and why', access: 'viewer', responses: { 200: z.array(WaitingItemDto) } }),
  raters: endpoint({ ...ROUTES['evaluation.raters'], summary: 'Each rater\'s reliability weight, most active first', access: 'viewer', responses: { 200: z.array(RaterReliabilityDto) } }),
};
