/**
 * Many noisy ratings → a trustworthy score per stream, weighting each rater by how well they
 * agree with the others (a deviation-weighted scheme, iterated to a fixed point):
 *
 *   item score   s_i = (k0·μ0 + Σ_r w_r·x_ri) / (k0 + Σ_r w_r)            (a neutral prior μ0 = 3)
 *   rater weight w_r = 1 / (msd_r + ε)²           (squared: a careless rater fades fast)
 *   msd_r        = (Σ_i (x_ri − s_i^(−r))² + α·σ0²) / (n_r + α)          (shrunk toward σ0²)
 *
 * where s_i^(−r) is the consensus of the *other* raters of item i, so nobody agrees with
 * themselves. A rater who always presses the same key, or presses at random, deviates from the
 * others and ends with a small weight; a new rater starts at the prior weight 1/(σ0² + ε), well
 * under an established consistent rater's. Raters with fewer than MIN_HISTORY ratings together
 * weigh at most NEWCOMER_SHARE of an item's established raters, so no number of fresh accounts
 * moves a rated item by SPAM_BOUND or more.
 *
 * Confidence of an item grows with the weight behind it and falls with disagreement:
 *   c_i = (W_i / (W_i + κ)) · 1 / (1 + v_i),  W_i = Σ w_r,  v_i = weighted variance of its ratings.
 *
 * Pure: no database, no clock. Property-tested in tests/unit/reliability.test.ts.
 */

export interface Rating {
  item: number;
  rater: string;
  /** 1–5. */
  value: number;
}

export interface ItemEstimate {
  item: number;
  /** 0–5 (1–5 in practice; the prior pulls sparse items toward 3). */
  score: number;
  /** 0–1. */
  confidence: number;
  count: number;
}

export interface Estimates {
  items: Map<number, ItemEstimate>;
  /** Each rater's reliability weight. */
  raters: Map<string, number>;
  iterations: number;
}

/** The model's constants, shared with judgements.ts (ratings and comparisons in one model). */
export const PRIOR_MEAN = 3;
export const PRIOR_WEIGHT = 0.5; // k0: half a rating's worth of "average"
export const PRIOR_VARIANCE = 2; // σ0²: a newcomer is assumed about as noisy as uniform guessing on 1–5
export const SHRINK = 1; // α: ratings' worth of prior in each rater's deviation
export const EPSILON = 0.1;
export const KAPPA = 2; // weight at which confidence is half its agreement share
export const MIN_HISTORY = 3;
/** Newcomers' combined weight on an item is at most this share of its established raters' weight. */
export const NEWCOMER_SHARE = 0.1;
/**
 * The stated bound: no number of newcomers moves an item rated by established raters by this much
 * on 1–5. Newcomers are left out when raters are judged, so they cannot re-weight the panel, and
 * together they weigh at most s of it: a move of at most 4·s/(1+s) ≈ 0.36.
 */
export const SPAM_BOUND = (4 * NEWCOMER_SHARE) / (1 + NEWCOMER_SHARE);
const MAX_ITERATIONS = 100;

export function estimate(ratings: readonly Rating[]): Estimates {
  const byItem = new Map<number, Rating[]>();
  const byRater = new Map<string, Rating[]>();
  for (const r of ratings) {
    if (!Number.isFinite(r.value)) continue;
    (byItem.get(r.item) ?? byItem.set(r.item, []).get(r.item)!).push(r);
    (byRater.get(r.rater) ?? byRater.set(r.rater, []).get(r.rater)!).push(r);
  }
  const priorWeight = 1 / (PRIOR_VARIANCE + EPSILON) ** 2;
  const weights = new Map<string, number>([...byRater.keys()].map((k) => [k, priorWeight]));
  const newcomer = (rater: string) => (byRater.get(rater)?.length ?? 0) < MIN_HISTORY;

  /** Effective weights on one item: newcomers together weigh at most NEWCOMER_SHARE of the established raters. */
  const itemWeights = (list: readonly Rating[]): number[] => {
    const raw = list.map((r) => weights.get(r.rater)!);
    const fresh = list.reduce((sum, r, i) => sum + (newcomer(r.rater) ? raw[i]! : 0), 0);
    const established = list.reduce((sum, r, i) => sum + (newcomer(r.rater) ? 0 : raw[i]!), 0);
    const cap = NEWCOMER_SHARE * established;
    const scale = established > 0 && fresh > cap ? cap / fresh : 1;
    return list.map((r, i) => (newcomer(r.rater) ? raw[i]! * scale : raw[i]!));
  };

  const consensus = (list: readonly Rating[], w: readonly number[], without?: string) => {
    let num = PRIOR_WEIGHT * PRIOR_MEAN;
    let den = PRIOR_WEIGHT;
    list.forEach((r, i) => {
      if (r.rater === without) return;
      num += w[i]! * r.value;
      den += w[i]!;
    });
    return num / den;
  };

  /** Weights for judging raters: established raters only, so newcomers can never re-weight the panel. */
  const panelWeights = (list: readonly Rating[]): number[] => list.map((r) => (newcomer(r.rater) ? 0 : weights.get(r.rater)!));

  let iterations = 0;
  for (; iterations < MAX_ITERATIONS; iterations++) {
    const squared = new Map<string, number>();
    for (const list of byItem.values()) {
      const w = panelWeights(list);
      for (const r of list) {
        const d = r.value - consensus(list, w, r.rater);
        squared.set(r.rater, (squared.get(r.rater) ?? 0) + d * d);
      }
    }
    let change = 0;
    for (const [rater, list] of byRater) {
      const msd = ((squared.get(rater) ?? 0) + SHRINK * PRIOR_VARIANCE) / (list.length + SHRINK);
      const next = 1 / (msd + EPSILON) ** 2;
      change = Math.max(change, Math.abs(next - weights.get(rater)!));
      weights.set(rater, next);
    }
    if (change < 1e-9) break;
  }

  const items = new Map<number, ItemEstimate>();
  for (const [item, list] of byItem) {
    const w = itemWeights(list);
    const score = consensus(list, w);
    const total = w.reduce((a, b) => a + b, 0);
    const variance = total > 0 ? list.reduce((sum, r, i) => sum + w[i]! * (r.value - score) ** 2, 0) / total : 0;
    items.set(item, { item, score, confidence: (total / (total + KAPPA)) * (1 / (1 + variance)), count: list.length });
  }
  return { items, raters: weights, iterations };
}

/**
 * The stream's quality from both halves, by their confidences: the human score (0–5, as 0–100)
 * and the automatic one. The fused confidence is what either half leaves unexplained, inverted.
 */
export function fuseScores(
  automatic: { score: number | null; confidence: number | null },
  human: { score: number | null; confidence: number | null },
): { score: number | null; confidence: number | null } {
  const parts: [number, number][] = [];
  if (automatic.score !== null && automatic.confidence !== null) parts.push([automatic.score, automatic.confidence]);
  if (human.score !== null && human.confidence !== null) parts.push([(human.score / 5) * 100, human.confidence]);
  if (parts.length === 0) return { score: automatic.score, confidence: automatic.confidence };
  const weight = parts.reduce((sum, [, c]) => sum + c, 0);
  if (weight === 0) return { score: parts[0]![0], confidence: 0 };
  const score = parts.reduce((sum, [s, c]) => sum + s * c, 0) / weight;
  const confidence = 1 - parts.reduce((rest, [, c]) => rest * (1 - c), 1);
  return { score: Math.round(score * 10) / 10, confidence: Math.round(confidence * 1000) / 1000 };
}
