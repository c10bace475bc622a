/**
 * Quiet is not frozen (issue 40): camera-like clips the tests render (tests/support/quality-corpus.ts),
 * served as live HLS on 127.0.0.1 and judged by the real analyzer (ffmpeg). Each row says what the
 * clip must be judged — frozen or not, and whether its sample could show a looped recording — and
 * why; the figures are printed, so a change in the measure shows in the log. Loops themselves:
 * tests/quality/replay.test.ts and looped.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Analysis } from '../../src/modules/quality/analyzer/index.ts';
import { nextHealth } from '../../src/shared/quality/health.ts';
import { findReplay, isMoving } from '../../src/modules/quality/analyzer/replay.ts';
import { LIVE_OR_LOOPED, scoreQuality, STILL_OR_FROZEN, type Stillness } from '../../src/shared/quality/score.ts';
import type { ClipName } from '../support/quality-corpus.ts';
import { startCorpusAnalysis, type CorpusAnalysis } from '../support/corpus-analysis.ts';

/**
 * What a sample's fingerprint can say of a loop: `live` — its frames differ down to the noise and
 * no stretch of it comes back; `cant-tell` — its frames hardly differ (the encoder erased the
 * noise, or the picture is stuck), so nothing in it could show a replay nor rule one out; `moot`
 * — a frozen picture at a camera's rate, whose keyframes re-code the same picture: either answer
 * is honest and neither matters, for frozen is the fault.
 */
type LoopVerdict = 'live' | 'cant-tell' | 'moot';

/** Clip → what it must be judged, and why. */
const CASES: [ClipName, Stillness, LoopVerdict, string][] = [
  ['quiet_still', 'changing', 'live', 'a quiet hour: nothing moves, but a live sensor\'s noise never repeats (issue 40\'s clip)'],
  ['quiet_light', 'changing', 'live', 'the same with a quieter sensor (the old 64 × 36 test called 0.96 of its pairs frozen)'],
  ['night_still', 'changing', 'live', 'a dark scene with heavy night noise: dark is not frozen'],
  ['dawn', 'changing', 'live', 'the light rising slowly over a still scene'],
  ['leaves', 'changing', 'live', 'small motion: a patch of leaves stirring by a few pixels'],
  ['animal_flat', 'changing', 'live', 'a 60-px animal crossing the quiet meadow'],
  ['meadow_still', 'changing', 'live', 'the project\'s own still meadow'],
  ['stuck_cbr', 'frozen', 'moot', 'one frame repeated at a camera\'s constant bitrate: the encoder had the bits for noise, and nothing changed'],
  ['stuck_crf', 'frozen', 'cant-tell', 'one frame repeated at the default rate: the very same picture, pair after pair'],
  ['frozen720', 'frozen', 'cant-tell', 'a test pattern\'s first frame repeated'],
  ['quiet_still_crf', 'cant-tell', 'cant-tell', 'the quiet meadow at x264\'s default rate: the encoder erased the noise, so still and stuck look the same, and so would a loop of it'],
];

let analysis: CorpusAnalysis;
let analyses: Map<ClipName, Analysis>;

beforeAll(async () => {
  analysis = await startCorpusAnalysis();
  analyses = await analysis.analyzeAll(CASES.map(([clip]) => clip), 2); // two at a time: the machine has two cores
  for (const [clip] of CASES) {
    const { measurements: m, metrics } = analyses.get(clip)!;
    const sample = metrics.sample as { stillness: unknown; videoBitsPerPixel: unknown };
    const print = analyses.get(clip)!.fingerprint;
    console.log(`${clip}: ${JSON.stringify(sample.stillness)}, bpp ${String(sample.videoBitsPerPixel)}, activity ${m.activity}, faults ${scoreQuality(m).faults.join(' ') || '-'}, print ${print?.frames.length} frames at ${print?.fps} fps, telling ${print ? isMoving(print) : '-'}`);
  }
}, 240_000);
afterAll(async () => analysis?.close());

const measured = (clip: ClipName) => analyses.get(clip)!.measurements;

describe('frozen means the picture repeats', () => {
  it.each(CASES)('%s is %s: %s', (clip, expected) => {
    const m = measured(clip);
    expect(m.stillness).toBe(expected);
    const result = scoreQuality(m);
    const health = nextHealth({ faults: result.faults, failedChecks: 0, current: 'live' }).health;
    if (expected === 'frozen') {
      expect(result.faults).toContain('frozen');
      expect(health).toBe('degraded');
    } else {
      expect(result.faults).not.toContain('frozen');
      expect(health).toBe('live');
    }
    // Can't tell is said, not hidden: its own note, and health as if nothing were found.
    expect(result.notes.includes(STILL_OR_FROZEN)).toBe(expected === 'cant-tell');
  });

  it.each(CASES)('%s (%s) can show a loop: %s', (clip, _stillness, expected) => {
    const print = analyses.get(clip)!.fingerprint!;
    expect(print.frames.length).toBe(200); // every decoded frame of the 8 s sample, at the clip's 25 fps
    expect(print.fps).toBe(25);
    // No clip here repeats within its sample (each is 24 s before it plays again).
    expect(findReplay(print, print)).toBeNull();
    if (expected === 'moot') return;
    expect(isMoving(print)).toBe(expected === 'live');
    // Can't tell is said where it matters: the analysis notes it unless the picture is frozen anyway.
    const result = scoreQuality({ ...measured(clip), looped: expected === 'live' ? false : null });
    expect(result.notes.includes(LIVE_OR_LOOPED)).toBe(expected === 'cant-tell' && !result.faults.includes('frozen'));
  });

  it('the crossing animal is at least three times as active as the quiet scene', () => {
    expect(measured('animal_flat').activity!).toBeGreaterThanOrEqual(3 * Math.max(measured('quiet_still').activity!, 0.1));
  });
});
