/**
 * From what an analysis measured to the spec's quality score (0–100) and confidence (0–1), with
 * the faults named. One pure function, table-tested (tests/unit/quality-score.test.ts).
 *
 * - Availability is a gate: an unreachable stream scores 0.
 * - The picture's size sets the base: 2160p 100, 1080p 92, 720p 80, 480p 62, 360p 50, smaller 35
 *   (an embedded stream whose size is unknown: 70, or its platform's definition: hd 85, sd 55).
 * - Penalties: frame rate (below 24: −8, below 15: −18, below 8: −30, `low-fps`), bits per pixel
 *   below 0.02 for a moving, sharp picture (−10, `low-bitrate`), not live (a VOD playlist posing as live, or a live playlist
 *   that does not advance: −40, `not-live`), a recording replayed as live (at most 40, `looped`), blur (blurdetect mean above 9: −25, `blurry`), a
 *   slow first byte (over 3 s: −5, `slow`).
 * - Caps: mostly black (over half the sample, and it is not night there) at most 25, `black`;
 *   mostly frozen at most 30, `frozen` (the picture repeats: over half its frame pairs the same
 *   at full resolution, where a still scene's sensor noise still differs — analyzer/stillness.ts).
 *   A dark picture at night is `night`, not a fault. A picture that repeats where the encoder
 *   erased the noise that would tell a still scene from a stuck one is noted `STILL_OR_FROZEN`,
 *   not a fault: the stream is scored as if nothing were wrong. A live sample whose frames hardly
 *   differ cannot show a replay nor rule one out: noted `LIVE_OR_LOOPED` (looped: null).
 * - Confidence follows what was measured: a decoded sample 0.9, a probe without a sample 0.6,
 *   a platform's API 0.6, oEmbed and thumbnails only 0.35, unreachable 0.9 (that much is sure).
 */

/** What the frames of a sample say about repeating (analyzer/stillness.ts). */
export const STILLNESS = ['changing', 'frozen', 'cant-tell'] as const;
export type Stillness = (typeof STILLNESS)[number];
/** The note of a sample that repeats where nothing measured can tell still from frozen. */
export const STILL_OR_FROZEN = "still or frozen — can't tell";
/** The note of a live sample whose frames hardly differ: nothing in it could show a recording played again, nor that it is none. */
export const LIVE_OR_LOOPED = "live or looped — can't tell";

export const QUALITY_FAULTS = ['unreachable', 'not-live', 'looped', 'black', 'frozen', 'blurry', 'low-fps', 'low-bitrate', 'slow', 'no-video'] as const;
export type QualityFault = (typeof QUALITY_FAULTS)[number];

export interface QualityMeasurements {
  /** How it was measured: a decoded sample of a direct stream, a probe only, a platform API, oEmbed. */
  method: 'sample' | 'probe' | 'api' | 'oembed';
  reachable: boolean;
  /** Why it could not be reached or read, as the admin should read it. */
  error?: string | null;
  ttfbMs?: number | null;
  /** false: a VOD playlist or one that does not advance; null: unknown (files, embeds without API). */
  live?: boolean | null;
  width?: number | null;
  height?: number | null;
  fps?: number | null;
  bitrateKbps?: number | null;
  codec?: string | null;
  audio?: boolean | null;
  /** Share of the sample that is black / frozen (its frames the same picture), 0–1. */
  blackRatio?: number | null;
  frozenRatio?: number | null;
  /** Whether a repeating picture is frozen, or can't be told from a still scene; absent on analyses made before it was measured (then frozenRatio decides alone). */
  stillness?: Stillness | null;
  /** blurdetect's mean (higher is blurrier; sharp video is about 2–6). */
  blur?: number | null;
  /** Mean luma (0–255); mean region change between frames (grey levels): how much the picture moves. */
  brightness?: number | null;
  motion?: number | null;
  /** Local motion above the sample's noise (grey levels): what is happening (src/shared/quality/activity.ts). */
  activity?: number | null;
  /** It replays a recording while posing as live (unless an admin said that is fine); null: its sample could not tell (replay.ts). */
  looped?: boolean | null;
  /** It is night at the stream's location (suncalc) when the sample was taken. */
  night?: boolean | null;
  /** An embedded platform's own word on its definition. */
  definition?: 'hd' | 'sd' | null;
}

export interface QualityResult {
  score: number;
  confidence: number;
  faults: QualityFault[];
  /** Informational notes that are not faults (`night`). */
  notes: string[];
}

function base(m: QualityMeasurements): number {
  const h = m.height ?? null;
  if (h === null) return m.definition === 'hd' ? 85 : m.definition === 'sd' ? 55 : 70;
  if (h >= 2160) return 100;
  if (h >= 1080) return 92;
  if (h >= 720) return 80;
  if (h >= 480) return 62;
  if (h >= 360) return 50;
  return 35;
}

const CONFIDENCE: Record<QualityMeasurements['method'], number> = { sample: 0.9, probe: 0.6, api: 0.6, oembed: 0.35 };

export function scoreQuality(m: QualityMeasurements): QualityResult {
  if (!m.reachable) return { score: 0, confidence: 0.9, faults: ['unreachable'], notes: [] };
  const faults: QualityFault[] = [];
  const notes: string[] = [];
  let score = base(m);
  if (m.method === 'sample' && (m.width ?? 0) === 0) {
    faults.push('no-video');
    return { score: 5, confidence: 0.6, faults, notes };
  }
  if (m.fps != null && m.fps > 0 && m.fps < 24) {
    score -= m.fps < 8 ? 30 : m.fps < 15 ? 18 : 8;
    if (m.fps < 15) faults.push('low-fps');
  }
  // A still, black or blurred picture needs few bits: a low bitrate is a fault of a picture that moves.
  const still = (m.blackRatio ?? 0) > 0.5 || (m.frozenRatio ?? 0) > 0.5 || (m.blur != null && m.blur > 9);
  if (!still && m.bitrateKbps && m.width && m.height && m.fps) {
    const bpp = (m.bitrateKbps * 1000) / (m.width * m.height * m.fps);
    if (bpp < 0.02) {
      score -= 10;
      faults.push('low-bitrate');
    }
  }
  if (m.live === false) {
    score -= 40;
    faults.push('not-live');
  }
  if (m.looped) {
    score = Math.min(score, 40);
    faults.push('looped');
  }
  if (m.blur != null && m.blur > 9) {
    score -= 25;
    faults.push('blurry');
  }
  if (m.ttfbMs != null && m.ttfbMs > 3000) {
    score -= 5;
    faults.push('slow');
  }
  const dark = (m.blackRatio ?? 0) > 0.5;
  if (dark && m.night) notes.push('night');
  else if (dark) {
    score = Math.min(score, 25);
    faults.push('black');
  }
  const repeats = (m.frozenRatio ?? 0) > 0.5 && !(dark && m.night);
  const cantTell = repeats && m.stillness === 'cant-tell';
  if (cantTell) notes.push(STILL_OR_FROZEN);
  else if (repeats) {
    score = Math.min(score, 30);
    faults.push('frozen');
  }
  // Whether a frozen or black picture loops does not matter; any other that could not tell is said so.
  if (m.looped === null && !(repeats && !cantTell) && !dark) notes.push(LIVE_OR_LOOPED);
  const unsure = m.method === 'sample' && ((m.night && dark) || cantTell);
  const confidence = unsure ? 0.6 : CONFIDENCE[m.method];
  return { score: Math.max(0, Math.min(100, Math.round(score))), confidence, faults, notes };
}
