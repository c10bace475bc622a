/**
 * Recordings posing as live. Each analysis keeps a compact fingerprint of what it saw: its
 * frames at PRINT_FPS, each PRINT_WIDTH × PRINT_HEIGHT grey (4 × 4 blocks of the motion frames,
 * 144 bytes a frame, ≈ 6 KB an analysis), with the playlist segment each frame came from.
 *
 * A fresh sample replays an earlier one when a run of at least MIN_RUN_SECONDS of it matches a
 * run of the earlier one frame by frame — much closer than its own consecutive frames are to
 * each other — while the run moves (a still scene, or night-time black, matches itself and
 * proves nothing) and the matched frames came from different segments (a segment fetched twice
 * by two analyses a few seconds apart is the same footage, not a replay). A live camera never
 * shows the same moving seconds twice; a looped recording does, at another place in time.
 * Pure, table-tested on rendered clips (tests/quality/replay.test.ts).
 */
import { MOTION_HEIGHT, MOTION_WIDTH } from './motion.ts';

export const PRINT_WIDTH = 16;
export const PRINT_HEIGHT = 9;
export const PRINT_FPS = 5;
const PRINT_SIZE = PRINT_WIDTH * PRINT_HEIGHT;
/** A replay must match this long. */
export const MIN_RUN_SECONDS = 3;
/** Frames this close (mean grey levels) are the same picture… */
const MATCH_MAX = 2.5;
/** …and the matched run must move: its consecutive frames differ by at least this much on average… */
const MOVING_MIN = 0.8;
/** …and match at most this share of that movement (a replay matches far closer than the next frame does). */
const MATCH_SHARE = 0.35;

export interface Fingerprint {
  /** Frames a second (PRINT_FPS, or the stream's own rate when it is lower). */
  fps: number;
  /** Each frame, PRINT_SIZE bytes. */
  frames: Uint8Array[];
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
}

/** One print frame from one motion frame: 4 × 4 block averages. */
function shrink(frame: Uint8Array): Uint8Array {
  const bx = MOTION_WIDTH / PRINT_WIDTH;
  const by = MOTION_HEIGHT / PRINT_HEIGHT;
  const out = new Uint8Array(PRINT_SIZE);
  for (let y = 0; y < PRINT_HEIGHT; y++) {
    for (let x = 0; x < PRINT_WIDTH; x++) {
      let sum = 0;
      for (let dy = 0; dy < by; dy++) for (let dx = 0; dx < bx; dx++) sum += frame[(y * by + dy) * MOTION_WIDTH + x * bx + dx]!;
      out[y * PRINT_WIDTH + x] = Math.round(sum / (bx * by));
    }
  }
  return out;
}

/**
 * The fingerprint of a sample's motion frames (`motionFps` a second); `segmentAt(seconds)` names
 * the segment a moment of the sample came from.
 */
export function fingerprintOf(motionFrames: readonly Uint8Array[], motionFps: number, takenAt: number, segmentAt: (seconds: number) => number | null = () => null): Fingerprint {
  const step = Math.max(1, Math.round(motionFps / PRINT_FPS));
  const frames: Uint8Array[] = [];
  const segments: (number | null)[] = [];
  for (let i = 0; i < motionFrames.length; i += step) {
    frames.push(shrink(motionFrames[i]!));
    segments.push(segmentAt(i / motionFps));
  }
  return { fps: motionFps / step, frames, segments, takenAt };
}

const distance = (a: Uint8Array, b: Uint8Array) => {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += Math.abs(a[i]! - b[i]!);
  return sum / a.length;
};

/** The first run of `newer` that replays a run of `older` (or, given the same print twice, of itself elsewhere); null when none does. */
export function findReplay(newer: Fingerprint, older: Fingerprint): Replay | null {
  if (Math.abs(newer.fps - older.fps) > 0.01) return null; // prints of different rates do not line up
  const run = Math.max(3, Math.round(MIN_RUN_SECONDS * newer.fps));
  const self = newer === older;
  for (let i = 0; i + run <= newer.frames.length; i++) {
    // The run of the fresh sample must move, or nothing it matches means anything.
    let moving = 0;
    for (let t = 0; t < run - 1; t++) moving += distance(newer.frames[i + t]!, newer.frames[i + t + 1]!);
    moving /= run - 1;
    if (moving < MOVING_MIN) continue;
    for (let j = 0; j + run <= older.frames.length; j++) {
      if (self && Math.abs(i - j) < run) continue;
      let matched = 0;
      let sameFootage = false;
      for (let t = 0; t < run; t++) {
        const d = distance(newer.frames[i + t]!, older.frames[j + t]!);
        if (d > MATCH_MAX) break;
        const a = newer.segments[i + t];
        const b = older.segments[j + t];
        if (!self && a !== null && a !== undefined && a === b) sameFootage = true;
        matched += d;
        if (t === run - 1 && !sameFootage && matched / run <= MATCH_SHARE * moving) {
          return { newerAt: i / newer.fps, olderAt: j / older.fps, seconds: MIN_RUN_SECONDS };
        }
      }
    }
  }
  return null;
}

/** Whether some run of the print moves (only then can it show a replay, or show that there is none). */
export function isMoving(print: Fingerprint): boolean {
  const run = Math.max(3, Math.round(MIN_RUN_SECONDS * print.fps));
  for (let i = 0; i + run <= print.frames.length; i++) {
    let moving = 0;
    for (let t = 0; t < run - 1; t++) moving += distance(print.frames[i + t]!, print.frames[i + t + 1]!);
    if (moving / (run - 1) >= MOVING_MIN) return true;
  }
  return false;
}

/** Stored form: the frames' bytes, then nothing else (segments and time are kept beside it). */
export function packFrames(print: Fingerprint): Buffer {
  return Buffer.concat(print.frames.map((f) => Buffer.from(f.buffer, f.byteOffset, f.byteLength)));
}

export function unpackFrames(bytes: Buffer): Uint8Array[] {
  const frames: Uint8Array[] = [];
  for (let offset = 0; offset + PRINT_SIZE <= bytes.length; offset += PRINT_SIZE) frames.push(new Uint8Array(bytes.buffer, bytes.byteOffset + offset, PRINT_SIZE));
  return frames;
}
