/**
 * Is the picture frozen? Frozen means the picture repeats: the decoder shows the same frame again.
 * A live camera's sensor noise never repeats, so even a scene where nothing moves changes from one
 * frame to the next, by its noise. Read at full resolution (ffmpeg's `scdet` mean absolute frame
 * difference, 10 frames a second): a 64 × 36 copy averages the noise away and a quiet meadow
 * looked frozen (issue 40: its change 0.02 grey levels there, 0.46 at full resolution).
 *
 * - A pair of frames is *the same* when its change is below SAME_MAX grey levels (a quiet live
 *   scene at a camera's bitrate: 0.12 and more; one frame repeated at a constant bitrate: 0.01).
 * - Over half the pairs the same, the picture repeats — frozen, if the evidence says the noise
 *   would have shown: most pairs identical to the bit (an encoder repeating a frame), or the
 *   stream spent NOISE_BPP bits a pixel or more on pictures that did not change (a stuck source at
 *   a camera's constant bitrate).
 * - Otherwise the encoder erased the noise (a still scene at a low, quality-based rate: 0.01 bits
 *   a pixel): a still scene and a stuck one look the same, and nothing measured can tell them
 *   apart — `cant-tell`, a note and not a fault; the next samples decide once something moves.
 * Pure, table-tested (tests/unit/stillness.test.ts) and judged on rendered clips
 * (tests/quality/stillness.test.ts).
 */
import type { Stillness } from '../../../shared/quality/score.ts';

/** Below this change (grey levels, 0–255), two frames are the same picture. */
export const SAME_MAX = 0.05;
/** Bits a pixel a frame at which an encoder keeps a live sensor's noise (a still 360p scene at 300 kb/s still shows it). */
export const NOISE_BPP = 0.05;

export interface StillnessReading {
  verdict: Stillness;
  /** Share of frame pairs that are the same picture (0–1): the frozen ratio. */
  repeatRatio: number;
  /** Share of frame pairs identical to the bit (0–1). */
  identicalRatio: number;
  /** Median change between frames (grey levels). */
  changeMedian: number;
  pairs: number;
}

const round = (n: number) => Math.round(n * 1000) / 1000;

/**
 * `pairChanges`: each pair's mean absolute difference at full resolution (grey levels);
 * `bitsPerPixel`: the video's bits per pixel per frame (null: unknown). Null with fewer than
 * three pairs: nothing can be said.
 */
export function judgeStillness(pairChanges: readonly number[], bitsPerPixel: number | null): StillnessReading | null {
  const pairs = pairChanges.length;
  if (pairs < 3) return null;
  const repeatRatio = pairChanges.filter((c) => c < SAME_MAX).length / pairs;
  const identicalRatio = pairChanges.filter((c) => c === 0).length / pairs;
  const sorted = [...pairChanges].sort((a, b) => a - b);
  const changeMedian = sorted[Math.floor(pairs / 2)]!;
  const verdict: Stillness = repeatRatio <= 0.5 ? 'changing' : identicalRatio > 0.5 || (bitsPerPixel ?? 0) >= NOISE_BPP ? 'frozen' : 'cant-tell';
  return { verdict, repeatRatio: round(repeatRatio), identicalRatio: round(identicalRatio), changeMedian: round(changeMedian), pairs };
}
