import { defineEntity, p } from '@mikro-orm/core';
import { Stream } from '../streams/stream.entity.ts';

/**
 * A stream waiting for human judgements, with why and how urgently; leased to one rater at a time.
 * `rate`: rate it 1–5 (stays until its confidence reaches the target); `check`: a stream whose
 * answer is established, given to a new rater (it measures them; one-off); `compare`: "which looks
 * better?", this stream against `partnerStream`.
 */
export const EvaluationItemSchema = defineEntity({
  name: 'EvaluationItem',
  tableName: 'evaluation_queue',
  properties: {
    id: p.integer().primary(),
    stream: () => p.manyToOne(Stream).deleteRule('cascade'),
    kind: p.enum(['rate', 'check', 'compare'] as const).default('rate'),
    partnerStream: () => p.manyToOne(Stream).nullable().deleteRule('cascade'),
    priority: p.integer().default(50),
    reason: p.text(),
    status: p.enum(['pending', 'done'] as const).default('pending'),
    assignedTo: p.text().nullable(),
    assignedAt: p.datetime().nullable(),
    createdAt: p.datetime().defaultRaw('now()').onCreate(() => new Date()),
    completedAt: p.datetime().nullable(),
  },
});
export class EvaluationItem extends EvaluationItemSchema.class {}
EvaluationItemSchema.setClass(EvaluationItem);

/** One rater's rating (or skip) of one queue item. */
export const HumanEvaluationSchema = defineEntity({
  name: 'HumanEvaluation',
  tableName: 'human_quality_evaluations',
  properties: {
    id: p.integer().primary(),
    item: () => p.manyToOne(EvaluationItem).fieldName('queue_id').nullable().deleteRule('set null'),
    stream: () => p.manyToOne(Stream).deleteRule('cascade'),
    evaluatorId: p.text(),
    videoQuality: p.smallint().nullable(),
    movement: p.smallint().nullable(),
    content: p.smallint().nullable(),
    audio: p.smallint().nullable(),
    overall: p.smallint().nullable(),
    skipped: p.boolean().default(false),
    durationMs: p.integer().nullable(),
    createdAt: p.datetime().defaultRaw('now()').onCreate(() => new Date()),
  },
});
export class HumanEvaluation extends HumanEvaluationSchema.class {}
HumanEvaluationSchema.setClass(HumanEvaluation);

/** One rater's answer to "which looks better?" for a pair. */
export const PairwiseEvaluationSchema = defineEntity({
  name: 'PairwiseEvaluation',
  tableName: 'pairwise_evaluations',
  properties: {
    id: p.integer().primary(),
    item: () => p.manyToOne(EvaluationItem).fieldName('queue_id').nullable().deleteRule('set null'),
    leftStream: () => p.manyToOne(Stream).deleteRule('cascade'),
    rightStream: () => p.manyToOne(Stream).deleteRule('cascade'),
    evaluatorId: p.text(),
    choice: p.enum(['left', 'right', 'same', 'skip'] as const),
    durationMs: p.integer().nullable(),
    createdAt: p.datetime().defaultRaw('now()').onCreate(() => new Date()),
  },
});
export class PairwiseEvaluation extends PairwiseEvaluationSchema.class {}
PairwiseEvaluationSchema.setClass(PairwiseEvaluation);

/**
 * What a stream's folded answers taught (judgement-history.ts): a Gaussian on its quality, on top
 * of the model's prior, and how many answers it stands for.
 */
export const JudgementItemSchema = defineEntity({
  name: 'JudgementItem',
  tableName: 'judgement_items',
  properties: {
    stream: () => p.manyToOne(Stream).primary().deleteRule('cascade'),
    mean: p.double(),
    precision: p.double(),
    count: p.integer(),
  },
});
export class JudgementItem extends JudgementItemSchema.class {}
JudgementItemSchema.setClass(JudgementItem);

/** A rater's folded answers: how many, and how far they were from the consensus they were folded under. */
export const JudgementRaterSchema = defineEntity({
  name: 'JudgementRater',
  tableName: 'judgement_raters',
  properties: {
    evaluatorId: p.text().primary(),
    answers: p.integer(),
    squared: p.double(),
    deviation: p.double(),
  },
});
export class JudgementRater extends JudgementRaterSchema.class {}
JudgementRaterSchema.setClass(JudgementRater);

/** Up to which answer of each kind (`rating`, `comparison`) is folded. */
export const JudgementFoldSchema = defineEntity({
  name: 'JudgementFold',
  tableName: 'judgement_folds',
  properties: {
    kind: p.text().primary(),
    lastId: p.integer(),
  },
});
export class JudgementFold extends JudgementFoldSchema.class {}
JudgementFoldSchema.setClass(JudgementFold);
