/**
 * Absolute ratings and pairwise comparisons → one score per stream, in one model, with each
 * rater weighted by how well they agree with everyone's consensus — in both kinds of answer.
 *
 * The model (a Gaussian–Bradley–Terry hybrid, fitted by maximum a posteriori):
 *
 *   latent quality q_i on the 1–5 scale, prior q_i ~ N(μ0, 1/k0)             (μ0 = 3, k0 = 0.5)
 *   an absolute rating x by rater r:    x ~ N(q_i, 1/w_r)
 *   "which looks better?" by rater r:  P(i over j) = σ((q_i − q_j)/S)        (Bradley–Terry, S = 0.5)
 *                                        weighted w_r; "about the same" counts half a win each way
 *
 * Log-posterior: −k0/2 Σ (q_i − μ0)² − Σ_abs w_r/2 (x − q_i)² + Σ_pairs w_r [y log σ(d/S) + (1−y) log σ(−d/S)],
 * maximised by Newton steps on each q_i (concave: it always converges). With absolute ratings only
 * the answer is the closed form s_i = (k0·μ0 + Σ w_r·x_ri) / (k0 + Σ w_r) (the estimator this
 * model replaced gave exactly that; tests/unit/judgements.test.ts checks it).
 *
 * Rater weights: w_r = 1 / (msd_r + ε)², msd_r = (Σ dev² + α·σ0²) / (n_r + α) over both kinds:
 *   absolute dev = x − q_i^(−r)  (the consensus of the others);
 *   pairwise dev² = 8 · (1 − p_answer)²  where p_answer is what the others' consensus gives the
 *   rater's answer — a coin-flipper (p ≈ ½) scores 2 = σ0², like a random key-presser, and a
 *   careful rater on clear pairs scores near 0. A constant key is a coin flip on pairs shown in
 *   random order, and far from consensus on absolute ratings: either way its weight fades.
 * Newcomers (fewer than MIN_HISTORY answers) are left out when raters are judged and together
 * weigh at most NEWCOMER_SHARE of an item's established raters.
 *
 * Collusion bound: raters who answer honestly to build a history and then always promote one
 * stream earn the same weight as the honest, so while they are at most a share c of an item's
 * established weight they move it by at most c·(5 − q) on absolute ratings ≤ 4c: for c = 20 %,
 * 0.8 — under one grade (1 point on 1–5 = 20 on the 0–100 quality scale). COLLUSION_BOUND states
 * it; tests/unit/judgements.test.ts tries it.
 *
 * Confidence grows with the information behind an item (absolute weights, and each comparison's
 * weight × p(1−p)/S²) and falls with disagreement, as before: c_i = W_i/(W_i + κ) · 1/(1 + v_i).
 * Pure: no database, no clock.
 */

/** One absolute rating. */
export interface Rating {
  item: number;
  rater: string;
  /** 1–5. */
  value: number;
}

/** μ0: the prior's mean, the middle of 1–5. */
export const PRIOR_MEAN = 3;
/** k0: the prior is worth half a rating of "average". */
export const PRIOR_WEIGHT = 0.5;
/** σ0²: a rater with no history is assumed about as noisy as uniform guessing on 1–5. */
export const PRIOR_VARIANCE = 2;
/** α: answers' worth of σ0² in each rater's deviation (a short history is not taken at its word). */
export const SHRINK = 1;
/** ε in w = 1/(msd + ε)²: no rater's weight is unbounded. */
export const EPSILON = 0.1;
/** κ: the information at which an item's confidence is half its agreement share. */
export const KAPPA = 2;
/** Answers a rater needs before they are judged (fewer: a newcomer). */
export const MIN_HISTORY = 3;
/** Newcomers' combined weight on an item is at most this share of its established raters' weight. */
export const NEWCOMER_SHARE = 0.1;

/** One "which looks better?" answer. */
export interface Comparison {
  left: number;
  right: number;
  rater: string;
  /** 1: left looks better, 0: right does, 0.5: about the same. */
  outcome: 0 | 0.5 | 1;
}

export interface JudgedItem {
  item: number;
  /** 1–5, never outside (the prior pulls sparse items toward 3). */
  score: number;
  confidence: number;
  /** Absolute ratings and comparisons it took part in. */
  count: number;
  /** Weighted spread of its absolute ratings around its score (raters disagree when it is large). */
  spread: number;
}

export interface RaterStanding {
  weight: number;
  /** 0–1: how well their answers agree with everyone else's consensus (1 − mean normalised deviation). */
  agreement: number;
  answers: number;
}

export interface Judgements {
  items: Map<number, JudgedItem>;
  raters: Map<string, RaterStanding>;
}

/** Bradley–Terry scale on the 1–5 axis: one point apart, the better wins 88 % of the time. */
export const PAIR_SCALE = 0.5;
/** Colluders at this share of an item's established weight… */
export const COLLUSION_SHARE = 0.2;
/** …move it by at most this on 1–5: under one grade. */
export const COLLUSION_BOUND = 4 * COLLUSION_SHARE;
/**
 * What answers no longer fitted one by one taught (the score keeper folds the oldest past its
 * window into this, so a settling's cost does not grow with the history): each item's evidence
 * as a Gaussian on its quality (a prior on top of μ0, k0), each rater's record (answers, summed
 * squared deviation and normalised deviation against the consensus they were folded under).
 */
export interface History {
  items: ReadonlyMap<number, { mean: number; precision: number; count: number }>;
  raters: ReadonlyMap<string, { answers: number; squared: number; deviation: number }>;
}
export const NO_HISTORY: History = { items: new Map(), raters: new Map() };

const OUTER_ITERATIONS = 40;
const NEWTON_STEPS = 25;

const sigmoid = (z: number) => 1 / (1 + Math.exp(-z));

/**
 * `history`: what earlier answers taught (none: every answer is given). `start`: raters' weights to
 * start from (the last settling's: the fixed point is the same, found in a few rounds, not forty).
 */
export function judge(ratings: readonly Rating[], comparisons: readonly Comparison[] = [], history: History = NO_HISTORY, start?: ReadonlyMap<string, number>): Judgements {
  const absolute = ratings.filter((r) => Number.isFinite(r.value));
  const pairs = comparisons.filter((c) => c.left !== c.right);
  const items = new Set<number>([...history.items.keys(), ...absolute.map((r) => r.item), ...pairs.flatMap((c) => [c.left, c.right])]);
  const answers = new Map<string, number>([...history.raters].map(([rater, h]) => [rater, h.answers]));
  for (const r of absolute) answers.set(r.rater, (answers.get(r.rater) ?? 0) + 1);
  for (const c of pairs) answers.set(c.rater, (answers.get(c.rater) ?? 0) + 1);
  /** Each item's prior: μ0, k0 and what its folded answers said. */
  const prior = new Map<number, { mean: number; precision: number }>();
  for (const item of items) {
    const h = history.items.get(item);
    const precision = PRIOR_WEIGHT + (h?.precision ?? 0);
    prior.set(item, { mean: (PRIOR_WEIGHT * PRIOR_MEAN + (h ? h.precision * h.mean : 0)) / precision, precision });
  }
  const newcomer = (rater: string) => (answers.get(rater) ?? 0) < MIN_HISTORY;
  const priorWeight = 1 / (PRIOR_VARIANCE + EPSILON) ** 2;
  const weights = new Map<string, number>([...answers.keys()].map((k) => [k, start?.get(k) ?? priorWeight]));

  const byRater = new Map<string, { absolute: Rating[]; pairs: Comparison[] }>();
  const ownOf = (rater: string) => byRater.get(rater) ?? byRater.set(rater, { absolute: [], pairs: [] }).get(rater)!;
  for (const r of absolute) ownOf(r.rater).absolute.push(r);
  for (const c of pairs) ownOf(c.rater).pairs.push(c);
  const absByItem = new Map<number, Rating[]>();
  for (const r of absolute) (absByItem.get(r.item) ?? absByItem.set(r.item, []).get(r.item)!).push(r);
  const pairsByItem = new Map<number, Comparison[]>();
  for (const c of pairs) {
    (pairsByItem.get(c.left) ?? pairsByItem.set(c.left, []).get(c.left)!).push(c);
    (pairsByItem.get(c.right) ?? pairsByItem.set(c.right, []).get(c.right)!).push(c);
  }

  /** Each answer's weight on one item: newcomers together at most NEWCOMER_SHARE of its established raters. */
  const capped = (raters: readonly string[]): ((rater: string) => number) => {
    let fresh = 0;
    let established = 0;
    for (const rater of new Set(raters)) {
      if (newcomer(rater)) fresh += weights.get(rater)!;
      else established += weights.get(rater)!;
    }
    const scale = established > 0 && fresh > NEWCOMER_SHARE * established ? (NEWCOMER_SHARE * established) / fresh : 1;
    return (rater) => weights.get(rater)! * (newcomer(rater) ? scale : 1);
  };

  const panelWeight = (rater: string) => (newcomer(rater) ? 0 : weights.get(rater)!);

  /**
   * The MAP scores for these weights (`without`: leave one rater's answers out; `panel`: established
   * raters only; `only`: move just these items, the rest staying at `from`).
   */
  function fit(options: { without?: string; panel?: boolean; from?: ReadonlyMap<number, number>; only?: ReadonlySet<number> } = {}): Map<number, number> {
    const swept = options.only ?? items;
    const weightOf = new Map<number, (rater: string) => number>();
    if (!options.panel) {
      for (const item of swept) weightOf.set(item, capped([...(absByItem.get(item) ?? []).map((r) => r.rater), ...(pairsByItem.get(item) ?? []).map((c) => c.rater)]));
    }
    // From a nearby fit where there is one (leaving one rater out moves little): the same optimum,
    // in fewer steps. Only the items moved are held here; the others are read from `from`.
    const start = (i: number) => options.from?.get(i) ?? prior.get(i)!.mean;
    const q = new Map<number, number>([...swept].map((i) => [i, start(i)]));
    const at = (i: number) => q.get(i) ?? start(i);
    for (let step = 0; step < NEWTON_STEPS; step++) {
      let moved = 0;
      for (const item of swept) {
        const w = options.panel ? panelWeight : weightOf.get(item)!;
        const current = q.get(item)!;
        const { mean, precision } = prior.get(item)!;
        let gradient = -precision * (current - mean);
        let curvature = precision;
        for (const r of absByItem.get(item) ?? []) {
          if (r.rater === options.without) continue;
          gradient += w(r.rater) * (r.value - current);
          curvature += w(r.rater);
        }
        for (const c of pairsByItem.get(item) ?? []) {
          if (c.rater === options.without) continue;
          const other = at(c.left === item ? c.right : c.left);
          const won = c.left === item ? c.outcome : 1 - c.outcome;
          const p = sigmoid((current - other) / PAIR_SCALE);
          gradient += (w(c.rater) * (won - p)) / PAIR_SCALE;
          curvature += (w(c.rater) * p * (1 - p)) / PAIR_SCALE ** 2;
        }
        const next = current + gradient / curvature;
        moved = Math.max(moved, Math.abs(next - current));
        q.set(item, next);
      }
      if (moved < 1e-7) break;
    }
    return q;
  }

  let panel: Map<number, number> | undefined;
  for (let round = 0; round < OUTER_ITERATIONS; round++) {
    // Judge each rater against the others' consensus (newcomers never re-weight the panel).
    const squared = new Map<string, number>();
    const consensusWithout = new Map<string, Map<number, number>>();
    panel = fit({ panel: true, from: panel });
    // Leaving a rater out moves the items they answered (and, through their comparisons, those
    // items' opponents a little): those are fitted again from the panel's scores, the rest kept.
    const consensusOf = (rater: string) => {
      const own = byRater.get(rater)!;
      const touched = new Set([...own.absolute.map((r) => r.item), ...own.pairs.flatMap((c) => [c.left, c.right])]);
      return consensusWithout.get(rater) ?? consensusWithout.set(rater, fit({ without: rater, panel: true, from: panel, only: touched })).get(rater)!;
    };
    for (const rater of answers.keys()) {
      const own = byRater.get(rater);
      const folded = history.raters.get(rater)?.squared ?? 0;
      if (!own) {
        // Only folded answers: their record is what it was.
        squared.set(rater, folded);
        continue;
      }
      const q = consensusOf(rater);
      let sum = 0;
      for (const r of own.absolute) sum += (r.value - q.get(r.item)!) ** 2;
      for (const c of own.pairs) {
        const p = sigmoid((q.get(c.left)! - q.get(c.right)!) / PAIR_SCALE);
        const pAnswer = c.outcome === 1 ? p : c.outcome === 0 ? 1 - p : 1 - Math.abs(p - 0.5);
        sum += 8 * (1 - pAnswer) ** 2;
      }
      squared.set(rater, sum + folded);
    }
    let change = 0;
    for (const [rater, n] of answers) {
      const msd = (squared.get(rater)! + SHRINK * PRIOR_VARIANCE) / (n + SHRINK);
      const next = 1 / (msd + EPSILON) ** 2;
      change = Math.max(change, Math.abs(next - weights.get(rater)!) / next);
      weights.set(rater, next);
    }
    if (change < 1e-6) break;
  }

  const q = fit();
  const result = new Map<number, JudgedItem>();
  for (const item of items) {
    const list = absByItem.get(item) ?? [];
    const comps = pairsByItem.get(item) ?? [];
    const w = capped([...list.map((r) => r.rater), ...comps.map((c) => c.rater)]);
    // Comparisons alone can carry a latent quality past the scale's ends (a stream that wins every
    // pair); the score is said on the 1–5 scale, so it stops there.
    const score = Math.min(5, Math.max(1, q.get(item)!));
    const folded = history.items.get(item);
    let information = folded?.precision ?? 0;
    let spreadSum = 0;
    let absWeight = 0;
    for (const r of list) {
      information += w(r.rater);
      absWeight += w(r.rater);
      spreadSum += w(r.rater) * (r.value - score) ** 2;
    }
    for (const c of comps) {
      const p = sigmoid((q.get(c.left)! - q.get(c.right)!) / PAIR_SCALE);
      information += (w(c.rater) * p * (1 - p)) / PAIR_SCALE ** 2 / 4;
    }
    const spread = absWeight > 0 ? spreadSum / absWeight : 0;
    result.set(item, { item, score, confidence: (information / (information + KAPPA)) * (1 / (1 + spread)), count: list.length + comps.length + (folded?.count ?? 0), spread });
  }
  const raters = new Map<string, RaterStanding>();
  const full = fit({ panel: true });
  for (const [rater, n] of answers) {
    const weight = weights.get(rater)!;
    let deviation = history.raters.get(rater)?.deviation ?? 0;
    const own = byRater.get(rater) ?? { absolute: [], pairs: [] };
    for (const r of own.absolute) deviation += Math.min(1, Math.abs(r.value - full.get(r.item)!) / 2);
    for (const c of own.pairs) {
      const p = sigmoid((full.get(c.left)! - full.get(c.right)!) / PAIR_SCALE);
      deviation += c.outcome === 1 ? 1 - p : c.outcome === 0 ? p : Math.abs(p - 0.5) * 2;
    }
    raters.set(rater, { weight, agreement: Math.round((1 - deviation / n) * 1000) / 1000, answers: n });
  }
  return { items: result, raters };
}

/** Kendall's τ-b between two rankings of the same items (ties handled), −1…1. */
export function kendallTauB(a: readonly number[], b: readonly number[]): number {
  let concordant = 0;
  let discordant = 0;
  let tiesA = 0;
  let tiesB = 0;
  for (let i = 0; i < a.length; i++) {
    for (let j = i + 1; j < a.length; j++) {
      const da = Math.sign(a[i]! - a[j]!);
      const db = Math.sign(b[i]! - b[j]!);
      if (da === 0 && db === 0) continue;
      if (da === 0) tiesA++;
      else if (db === 0) tiesB++;
      else if (da === db) concordant++;
      else discordant++;
    }
  }
  const denominator = Math.sqrt((concordant + discordant + tiesA) * (concordant + discordant + tiesB));
  return denominator === 0 ? 0 : (concordant - discordant) / denominator;
}
