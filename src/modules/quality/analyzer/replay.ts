/**
 * Recordings posing as live. Sensor noise never repeats in a live camera; in a recording replayed
 * as live, frame N and frame N + the loop's length are the same picture down to the noise. Each
 * analysis of a live stream keeps a fingerprint fine enough to hold that noise and small movement:
 * every decoded frame (at most PRINT_MAX_FPS a second, so a loop of any whole number of frames
 * lines up), each PRINT_WIDTH × PRINT_HEIGHT area means of the full picture at 1/256 of a grey
 * level (288 bytes a frame, ≈ 58 KB an 8 s sample; only a stream's last few are kept), with the
 * playlist segment each frame came from.
 *
 * A fresh sample replays an earlier one when a run of at least MIN_RUN_SECONDS of it matches a
 * run of the earlier one frame by frame far closer than its own consecutive frames are to each
 * other (at most MATCH_SHARE of them: a replay matches down to the noise, or to a re-encoder's
 * noise), and the matched frames came from different segments (a segment fetched twice by two
 * analyses a few seconds apart is the same footage, not a replay). A run whose consecutive frames
 * hardly differ (below MOVING_MIN: an encoder that erased the noise of a still scene, a stuck
 * picture) proves nothing either way: it is "can't tell", never "live" nor "looped".
 * Pure, table-tested on rendered clips (tests/quality/replay.test.ts, looped.test.ts).
 */

export const PRINT_WIDTH = 16;
export const PRINT_HEIGHT = 9;
/** Every decoded frame up to this rate (a faster stream is printed at this rate). */
export const PRINT_MAX_FPS = 30;
/** Stored prints start with this byte; a print of another version is not compared. */
export const PRINT_VERSION = 2;
const PRINT_SIZE = PRINT_WIDTH * PRINT_HEIGHT;
/** A print's values are grey levels × 256 (ffmpeg's gray16le of the area means). */
const LEVEL = 256;
/** A replay must match this long. */
export const MIN_RUN_SECONDS = 3;
/** Frames this close on average over the run (grey levels) can be the same picture… */
const MATCH_MAX = 2.5;
/**
 * …and the run must move: its consecutive frames differ by at least this much on average (grey
 * levels per area mean). A quiet scene's noise at a camera's rate is 0.035–0.07; a still scene
 * whose noise the encoder erased is at most 0.0064 (tests/quality/replay.test.ts).
 */
const MOVING_MIN = 0.015;
/** …and match at most this share of that movement: a replay, even re-encoded, is at most 0.16 of it; a live scene's closest run elsewhere 0.65 or more. */
const MATCH_SHARE = 0.35;

export interface Fingerprint {
  /** Frames a second (the stream's own rate, at most PRINT_MAX_FPS). */
  fps: number;
  /** Each frame, PRINT_SIZE area means in 1/256 of a grey level. */
  frames: Uint16Array[];
  /** The playlist segment (its media sequence number) each frame came from; null where unknown. */
  segments: (number | null)[];
  /** When the sample was taken (epoch ms). */
  takenAt: number;
}

export interface Replay {
  /** Where in the fresh sample and in the earlier one the matching run starts (s). */
  newerAt: number;
  olderAt: number;
  seconds: number;
  /** How close the run matched, as a share of its own movement (0: the very same frames). */
  closeness: number;
}

/** Frames from ffmpeg's gray16le output of PRINT_WIDTH × PRINT_HEIGHT. */
export function printFramesOf(raw: Buffer): Uint16Array[] {
  const frames: Uint16Array[] = [];
  for (let offset = 0; offset + PRINT_SIZE * 2 <= raw.length; offset += PRINT_SIZE * 2) {
    const frame = new Uint16Array(PRINT_SIZE);
    for (let i = 0; i < PRINT_SIZE; i++) frame[i] = raw.readUInt16LE(offset + i * 2);
    frames.push(frame);
  }
  return frames;
}

/** The fingerprint of a sample's print frames (`fps` a second); `segmentAt(seconds)` names the segment a moment came from. */
export function fingerprintOf(frames: Uint16Array[], fps: number, takenAt: number, segmentAt: (seconds: number) => number | null = () => null): Fingerprint {
  return { fps, frames, segments: frames.map((_, i) => segmentAt(i / fps)), takenAt };
}

/** Sum of absolute differences (1/256 grey levels, over the frame's PRINT_SIZE means). */
const difference = (a: Uint16Array, b: Uint16Array) => {
  let sum = 0;
  for (let i = 0; i < PRINT_SIZE; i++) sum += Math.abs(a[i]! - b[i]!);
  return sum;
};
/** A mean grey-level distance as the sums above add up (per frame pair). */
const asSum = (levels: number) => levels * LEVEL * PRINT_SIZE;

const runOf = (print: Fingerprint) => Math.max(3, Math.round(MIN_RUN_SECONDS * print.fps));

/** The movement of each run of the print starting at i (mean consecutive difference, as a sum); NaN where the print is too short. */
function movements(print: Fingerprint, run: number): Float64Array {
  const n = print.frames.length;
  const prefix = new Float64Array(n);
  for (let k = 1; k < n; k++) prefix[k] = prefix[k - 1]! + difference(print.frames[k - 1]!, print.frames[k]!);
  const out = new Float64Array(Math.max(0, n - run + 1));
  for (let i = 0; i + run <= n; i++) out[i] = (prefix[i + run - 1]! - prefix[i]!) / (run - 1);
  return out;
}

/**
 * The first run of `newer` that replays a run of `older` (or, given the same print twice, of
 * itself elsewhere); null when none does. Frames that match keep their offset along the run, so
 * each offset's frame differences are computed once and summed over a sliding window:
 * newer × older frame pairs in all, not times the run's length.
 */
export function findReplay(newer: Fingerprint, older: Fingerprint): Replay | null {
  if (Math.abs(newer.fps - older.fps) > 0.01) return null; // prints of different rates do not line up
  const run = runOf(newer);
  const n = newer.frames.length;
  const m = older.frames.length;
  if (n < run || m < run) return null;
  const self = newer === older;
  const moving = movements(newer, run);
  const movingMin = asSum(MOVING_MIN);
  if (!moving.some((v) => v >= movingMin)) return null;
  const matchMax = asSum(MATCH_MAX) * run;
  const diffs = new Float64Array(n);
  const same = new Uint8Array(n);
  let best: Replay | null = null;
  let bestStart: number | null = null;
  for (let offset = -(n - run); offset <= m - run; offset++) {
    if (self && Math.abs(offset) < run) continue;
    const from = Math.max(0, -offset);
    const to = Math.min(n, m - offset); // newer frames [from, to) pair with older [from + offset, to + offset)
    if (to - from < run) continue;
    for (let i = from; i < to; i++) {
      diffs[i] = difference(newer.frames[i]!, older.frames[i + offset]!);
      const a = newer.segments[i];
      same[i] = !self && a !== null && a !== undefined && a === older.segments[i + offset] ? 1 : 0;
    }
    let sum = 0;
    let sameFootage = 0;
    for (let i = from; i < to; i++) {
      sum += diffs[i]!;
      sameFootage += same[i]!;
      const start = i - run + 1;
      if (start < from) continue;
      if (start > from) {
        sum -= diffs[start - 1]!;
        sameFootage -= same[start - 1]!;
      }
      const movement = moving[start]!;
      if (movement < movingMin || sameFootage > 0 || sum > matchMax || sum > MATCH_SHARE * movement * run) continue;
      if (bestStart === null || start < bestStart) {
        bestStart = start;
        best = { newerAt: round(start / newer.fps), olderAt: round((start + offset) / older.fps), seconds: MIN_RUN_SECONDS, closeness: Math.round((sum / run / movement) * 1000) / 1000 };
      }
      break; // this offset's first run is its earliest
    }
  }
  return best;
}

const round = (seconds: number) => Math.round(seconds * 100) / 100;

/** Whether some run of the print moves enough to show a replay, or to show that there is none. */
export function isMoving(print: Fingerprint): boolean {
  const run = runOf(print);
  if (print.frames.length < run) return false;
  const movingMin = asSum(MOVING_MIN);
  return movements(print, run).some((v) => v >= movingMin);
}

/** Stored form: PRINT_VERSION, then the frames' values (16-bit little-endian); segments and time are kept beside it. */
export function packFrames(print: Fingerprint): Buffer {
  const bytes = Buffer.alloc(1 + print.frames.length * PRINT_SIZE * 2);
  bytes[0] = PRINT_VERSION;
  let offset = 1;
  for (const frame of print.frames) for (let i = 0; i < PRINT_SIZE; i++, offset += 2) bytes.writeUInt16LE(frame[i]!, offset);
  return bytes;
}

/** The frames of a stored print; null for a print of another version (an earlier release's 8-bit prints), which is not compared. */
export function unpackFrames(bytes: Buffer): Uint16Array[] | null {
  if (bytes.length % (PRINT_SIZE * 2) !== 1 || bytes[0] !== PRINT_VERSION) return null;
  return printFramesOf(bytes.subarray(1));
}
