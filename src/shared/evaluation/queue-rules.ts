/**
 * Who rates what, and when an item is done — the rater queue's rules, as plain functions
 * (table-tested in tests/unit/evaluation-queue.test.ts). The queue listens until the estimate
 * is sure, not until a count is reached:
 *
 * - An item is done when its human confidence reaches TARGET_CONFIDENCE with at least
 *   MIN_JUDGEMENTS answers from established raters — or when RATINGS_CAP answers were spent on it
 *   (a stream people truly disagree on is not rated for ever). Until then it waits, with its reason:
 *   raters disagree (its ratings' spread is DISAGREEMENT_SPREAD or more), or low confidence.
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

export type WaitReason = 'Raters disagree' | 'Low confidence' | 'Not yet evaluated' | 'New rater check' | 'Which looks better?';

export interface ItemState {
  /** Answers it has (absolute ratings and comparisons it took part in). */
  answers: number;
  /** Of those, from established raters. */
  established: number;
  confidence: number;
  spread: number;
}

/** Whether an item may leave the queue, and if not, why it waits. */
export function itemVerdict(state: ItemState | undefined): { done: true } | { done: false; reason: WaitReason; priority: number } {
  if (!state || state.answers === 0) return { done: false, reason: 'Not yet evaluated', priority: 100 };
  if (state.answers >= RATINGS_CAP) return { done: true };
  if (state.confidence >= TARGET_CONFIDENCE && state.established >= MIN_JUDGEMENTS) return { done: true };
  // One answer cannot disagree with anyone (its distance from the prior is not a dispute).
  if (state.answers >= 2 && state.spread >= DISAGREEMENT_SPREAD) return { done: false, reason: 'Raters disagree', priority: 80 };
  // The less certain, the sooner: 50 at no confidence, 30 just under the target.
  return { done: false, reason: 'Low confidence', priority: Math.round(50 - (20 * state.confidence) / TARGET_CONFIDENCE) };
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
