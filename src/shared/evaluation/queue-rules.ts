/**
 * Who rates what, and when an item is done — the rater queue's rules, as plain functions
 * (table-tested in tests/unit/evaluation-queue.test.ts). The queue listens until the estimate
 * is sure, not until a count is reached:
 *
 * - An item is done when its human confidence reaches TARGET_CONFIDENCE with at least
 *   MIN_JUDGEMENTS answers from established raters — or when RATINGS_CAP answers were spent on it
 *   (a stream people truly disagree on is not rated for ever). Until then it waits, with its reason:
 *   raters disagree (its ratings' spread is DISAGREEMENT_SPREAD or more), or low confidence.
 * - A stream is queued again (the refill) when it has no item waiting and none was done in the
 *   last day, with its reason: never rated, newly added, its automatic and human scores disagree,
 *   low confidence, or the periodic re-check.
 * - Every reason has one priority (PRIORITY; "Low confidence" a formula of the confidence), the
 *   same whoever queues the item; an item with answers waits a little behind one without (one
 *   point an answer, FEWER_ANSWERS_FIRST at most).
 * - A rater's standing decides what they draw first: a new rater (fewer than MIN_HISTORY answers)
 *   gets a check — a stream whose answer is well established — which also measures them; a
 *   trusted rater (weight in the top TRUSTED_SHARE of active raters) gets contested items first;
 *   everyone else the least certain items first.
 * - "Which looks better?" pairs are asked where they tell the most: two waiting streams whose
 *   scores are within PAIR_GAP of each other, the least certain first.
 */

/**
 * Human confidence at which an item is settled. Confidence is W/(W + 2) · 1/(1 + spread): careful
 * people disagree by about σ 0.7 (spread ≈ 0.5), so it tops out near 0.65; three established
 * raters who agree reach 0.5, while constant-key and random raters (small weights) never do.
 */
export const TARGET_CONFIDENCE = 0.5;
/** Answers from established raters an item needs before it may be settled. */
export const MIN_JUDGEMENTS = 3;
/** Answers spent on one item at most, however contested. */
export const RATINGS_CAP = 12;
/** Weighted spread (1–5 points², variance) at which raters are said to disagree. */
export const DISAGREEMENT_SPREAD = 1;
/** Share of active raters, by weight, who count as trusted (they get contested items first). */
export const TRUSTED_SHARE = 0.5;
/** Pairs are asked between streams whose scores are this close (1–5 scale). */
export const PAIR_GAP = 0.75;

/** A stream created this recently is "Newly added" (days). */
export const NEW_STREAM_DAYS = 2;
/** The automatic and human scores disagree when they are further apart than this (0–100 scale). */
export const SCORE_GAP = 25;
/** Among items as unsure, one point of priority less per answer an item already has, at most this many. */
export const FEWER_ANSWERS_FIRST = 15;
/** How far back one answer puts an item until the next settling (so a burst of raters spreads over the waiting items). */
export const ANSWER_STEP = 5;

export type WaitReason =
  | 'Not yet evaluated'
  | 'New rater check'
  | 'Newly added'
  | 'Raters disagree'
  | 'Automatic and human scores disagree'
  | 'Which looks better?'
  | 'Low confidence'
  | 'Periodic re-check';

/**
 * Each reason's priority (higher is asked sooner; 1–100), said once. "Low confidence" is a formula
 * (lowConfidencePriority: 50 at no confidence, 30 just under the target), so it sits between the
 * disputes and the periodic re-check of a stream already settled; a pair's priority orders pairs
 * among themselves only (a rater asks for a pair or a stream).
 */
export const PRIORITY = {
  'Not yet evaluated': 100,
  'New rater check': 100,
  'Newly added': 90,
  'Raters disagree': 80,
  'Automatic and human scores disagree': 80,
  'Which looks better?': 60,
  'Periodic re-check': 10,
} as const satisfies Record<Exclude<WaitReason, 'Low confidence'>, number>;

/**
 * "Low confidence": the less certain, the sooner — 50 at no confidence, 30 just under
 * TARGET_CONFIDENCE, lower still for an item that is confident but not from enough established
 * raters (it is likely near done).
 */
function lowConfidencePriority(confidence: number): number {
  return Math.round(50 - (20 * Math.max(confidence, 0)) / TARGET_CONFIDENCE);
}

/** A waiting item's priority: its reason's, one point less per answer it has (FEWER_ANSWERS_FIRST at most), never below 1. */
export function priorityOf(reason: WaitReason, state: { confidence: number; answers: number }): number {
  const base = reason === 'Low confidence' ? lowConfidencePriority(state.confidence) : PRIORITY[reason];
  return Math.max(1, base - Math.min(FEWER_ANSWERS_FIRST, Math.max(0, state.answers)));
}

export interface ItemState {
  /** Answers it has (absolute ratings and comparisons it took part in). */
  answers: number;
  /** Of those, from established raters. */
  established: number;
  confidence: number;
  spread: number;
}

/** Whether an item may leave the queue, and if not, why it waits and how urgently. */
export function itemVerdict(state: ItemState | undefined): { done: true } | { done: false; reason: WaitReason; priority: number } {
  const waits = (reason: WaitReason) => ({ done: false as const, reason, priority: priorityOf(reason, { confidence: state?.confidence ?? 0, answers: state?.answers ?? 0 }) });
  if (!state || state.answers === 0) return waits('Not yet evaluated');
  if (state.answers >= RATINGS_CAP) return { done: true };
  if (state.confidence >= TARGET_CONFIDENCE && state.established >= MIN_JUDGEMENTS) return { done: true };
  // One answer cannot disagree with anyone (its distance from the prior is not a dispute).
  if (state.answers >= 2 && state.spread >= DISAGREEMENT_SPREAD) return waits('Raters disagree');
  return waits('Low confidence');
}

/**
 * What a rater is told of the item they drew: its reason and priority — except a check, told as
 * the periodic re-check a stream with its answers would get (reason and priority alike), so nobody
 * answers checks more carefully than the rest.
 */
export function shownToRater(item: { kind: 'rate' | 'check'; reason: string; priority: number }, answers: number): { reason: string; priority: number } {
  if (item.kind !== 'check') return { reason: item.reason, priority: item.priority };
  return { reason: 'Periodic re-check', priority: priorityOf('Periodic re-check', { confidence: 0, answers }) };
}

/** What the refill knows of a stream it may queue (the streams module's fields). */
export interface StreamToRate {
  createdAt: Date;
  /** Answers its human score rests on. */
  humanCount: number;
  /** 0–5. */
  humanScore: number | null;
  humanConfidence: number | null;
  /** 0–100. */
  autoScore: number | null;
}

/**
 * Why a stream is queued again (it has no item waiting and none was done in the last day), and how
 * urgently: never rated, newly added, the automatic and human scores disagree, low confidence, or
 * else the periodic re-check. `now` is a parameter: the rule keeps no clock.
 */
export function refillVerdict(stream: StreamToRate, now: Date): { reason: WaitReason; priority: number } {
  const state = { confidence: stream.humanConfidence ?? 0, answers: stream.humanCount };
  const because = (reason: WaitReason) => ({ reason, priority: priorityOf(reason, state) });
  if (stream.humanCount === 0) return because('Not yet evaluated');
  if (now.getTime() - stream.createdAt.getTime() < NEW_STREAM_DAYS * 86_400_000) return because('Newly added');
  if (stream.autoScore !== null && stream.humanScore !== null && Math.abs(stream.autoScore - stream.humanScore * 20) > SCORE_GAP) return because('Automatic and human scores disagree');
  if (state.confidence < TARGET_CONFIDENCE) return because('Low confidence');
  return because('Periodic re-check');
}

export type Standing = 'new' | 'trusted' | 'regular';

/** A rater's standing among the active raters' weights. */
export function standingOf(answers: number, weight: number | undefined, weights: readonly number[], minHistory: number): Standing {
  if (answers < minHistory || weight === undefined) return 'new';
  const sorted = [...weights].sort((a, b) => b - a);
  const cut = sorted[Math.max(0, Math.ceil(sorted.length * TRUSTED_SHARE) - 1)] ?? Infinity;
  return weight >= cut ? 'trusted' : 'regular';
}

/** The pairs worth asking: waiting streams close in score, the least certain first, each stream once. */
export function pairsToAsk(items: readonly { id: number; score: number; confidence: number }[], limit: number): [number, number][] {
  const waiting = [...items].sort((a, b) => a.score - b.score);
  const candidates: { pair: [number, number]; uncertainty: number }[] = [];
  for (let i = 0; i < waiting.length; i++) {
    for (let j = i + 1; j < waiting.length && waiting[j]!.score - waiting[i]!.score <= PAIR_GAP; j++) {
      candidates.push({ pair: [waiting[i]!.id, waiting[j]!.id], uncertainty: 2 - waiting[i]!.confidence - waiting[j]!.confidence });
    }
  }
  candidates.sort((a, b) => b.uncertainty - a.uncertainty || a.pair[0] - b.pair[0] || a.pair[1] - b.pair[1]);
  const used = new Set<number>();
  const chosen: [number, number][] = [];
  for (const { pair } of candidates) {
    if (chosen.length >= limit) break;
    if (used.has(pair[0]) || used.has(pair[1])) continue;
    used.add(pair[0]);
    used.add(pair[1]);
    chosen.push(pair);
  }
  return chosen;
}
