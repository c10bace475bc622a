/**
 * A stream's quality from its two halves — the automatic analysis (0–100) and the raters' score
 * (0–5, from judgements.ts) — weighted by their confidences. The streams module applies it
 * whenever either half moves (src/modules/streams/stream-quality.ts): the one place they meet.
 * Pure; table-tested in tests/unit/fusion.test.ts.
 */

/**
 * The fused score (0–100, one decimal) and confidence (0–1, three decimals). The score is the
 * confidence-weighted mean of the halves that have both a score and a confidence; the fused
 * confidence is what neither half leaves unexplained, 1 − Π(1 − c). With neither half, the
 * automatic one is returned as it is (a score without a confidence stays unfused).
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
