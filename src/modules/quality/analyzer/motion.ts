/**
 * What moves in a sample, from the decode the analysis already pays for: its frames at 10 fps,
 * shrunk to MOTION_WIDTH × MOTION_HEIGHT grey (area average, so sensor noise is averaged down
 * and a 60-px animal in a 640-px picture is still a few pixels). Pure functions, table-tested
 * on rendered clips (tests/quality/activity.test.ts).
 *
 * - Each pair of consecutive frames is split into a GRID_COLS × GRID_ROWS grid of regions; a
 *   region's change is its mean absolute difference (grey levels, 0–255).
 * - The noise floor is the median region change over the whole sample: what a still scene's
 *   sensor noise and compression leave.
 * - Not frozen pictures: this copy averages a quiet scene's noise away until it looks like a
 *   stuck one; whether the picture repeats is read at full resolution (stillness.ts).
 * - Activity: how far the most-changed region of each pair rises above the noise floor, its 90th
 *   percentile over the sample — local motion, which a mean over the whole frame averages away.
 *   A still scene is near 0; an animal walking across a corner is several grey levels.
 */

export const MOTION_WIDTH = 64;
export const MOTION_HEIGHT = 36;
export const MOTION_FPS = 10;
const GRID_COLS = 8;
const GRID_ROWS = 6;

export interface MotionSummary {
  /** 90th percentile of the most-changed region's rise above the noise floor (grey levels). */
  activity: number;
  /** Median region change: the sample's noise (grey levels). */
  noiseFloor: number;
  /** Mean region change over the sample (grey levels): how much the whole picture moves. */
  motion: number;
  pairs: number;
}

const percentile = (sorted: readonly number[], p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]! : 0);
const round = (n: number, places = 3) => Math.round(n * 10 ** places) / 10 ** places;

/** Each region's mean absolute difference between two frames. */
function regionChanges(a: Uint8Array, b: Uint8Array, width: number, height: number): number[] {
  const sums = new Array<number>(GRID_COLS * GRID_ROWS).fill(0);
  const counts = new Array<number>(GRID_COLS * GRID_ROWS).fill(0);
  for (let y = 0; y < height; y++) {
    const row = Math.min(GRID_ROWS - 1, Math.floor((y * GRID_ROWS) / height));
    for (let x = 0; x < width; x++) {
      const cell = row * GRID_COLS + Math.min(GRID_COLS - 1, Math.floor((x * GRID_COLS) / width));
      const i = y * width + x;
      sums[cell]! += Math.abs(a[i]! - b[i]!);
      counts[cell]! += 1;
    }
  }
  return sums.map((sum, cell) => sum / Math.max(1, counts[cell]!));
}

/** The sample's motion figures; null with fewer than 3 frames (nothing can be said). */
export function summarizeMotion(frames: readonly Uint8Array[], width = MOTION_WIDTH, height = MOTION_HEIGHT): MotionSummary | null {
  if (frames.length < 3) return null;
  const perPair = frames.slice(1).map((frame, i) => regionChanges(frames[i]!, frame, width, height));
  const all = perPair.flat().sort((x, y) => x - y);
  const noiseFloor = percentile(all, 0.5);
  const maxima = perPair.map((changes) => Math.max(...changes));
  const rises = maxima.map((m) => Math.max(0, m - noiseFloor)).sort((x, y) => x - y);
  return {
    activity: round(percentile(rises, 0.9), 2),
    noiseFloor: round(noiseFloor),
    motion: round(all.reduce((s, v) => s + v, 0) / all.length),
    pairs: perPair.length,
  };
}

/** Splits ffmpeg's raw grey output into frames (a trailing partial frame is dropped). */
export function framesOf(raw: Buffer, width = MOTION_WIDTH, height = MOTION_HEIGHT): Uint8Array[] {
  const size = width * height;
  const frames: Uint8Array[] = [];
  for (let offset = 0; offset + size <= raw.length; offset += size) frames.push(new Uint8Array(raw.buffer, raw.byteOffset + offset, size));
  return frames;
}
