/**
 * What is happening now, on clips the tests render (tests/support/quality-corpus.ts) and serve as
 * live HLS, through the real analyzer: a still meadow with sensor noise and the same meadow with a
 * 60-px animal walking across it are live, not frozen, and the animal's activity stands clearly
 * above the still meadow's as a baseline; one frame repeated stays frozen; a busy moving picture
 * is not frozen either. Figures are printed, so a change in the measure shows in the log.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Analysis } from '../../src/modules/quality/analyzer/index.ts';
import { findReplay } from '../../src/modules/quality/analyzer/replay.ts';
import { judgeActivity } from '../../src/shared/quality/activity.ts';
import { scoreQuality } from '../../src/shared/quality/score.ts';
import type { ClipName } from '../support/quality-corpus.ts';
import { startCorpusAnalysis, type CorpusAnalysis } from '../support/corpus-analysis.ts';

let analysis: CorpusAnalysis;
let analyses: Map<ClipName, Analysis>;

beforeAll(async () => {
  analysis = await startCorpusAnalysis();
  const clips: ClipName[] = ['meadow_still', 'meadow_animal', 'frozen720', 'clean720'];
  analyses = await analysis.analyzeAll(clips, clips.length);
  for (const clip of clips) {
    const m = analyses.get(clip)!.measurements;
    console.log(`${clip}: frozen ${m.frozenRatio}, activity ${m.activity}, motion ${m.motion}, faults ${scoreQuality(m).faults.join(' ') || '-'}`);
  }
}, 120_000);
afterAll(async () => analysis?.close());

const measured = (clip: ClipName) => analyses.get(clip)!.measurements;
const faults = (clip: ClipName) => scoreQuality(measured(clip)).faults;

describe('frozen means frozen', () => {
  it('a still meadow with sensor noise is live, not frozen', () => {
    expect(measured('meadow_still').frozenRatio).toBeLessThan(0.5);
    expect(faults('meadow_still')).not.toContain('frozen');
  });

  it('the meadow with an animal walking across 2 % of it is not frozen', () => {
    expect(measured('meadow_animal').frozenRatio).toBeLessThan(0.5);
    expect(faults('meadow_animal')).not.toContain('frozen');
  });

  it('one frame repeated is frozen', () => {
    expect(measured('frozen720').frozenRatio).toBeGreaterThan(0.9);
    expect(faults('frozen720')).toContain('frozen');
  });

  it('a busy moving picture is not frozen', () => {
    expect(faults('clean720')).not.toContain('frozen');
  });
});

describe('activity', () => {
  it('is measured on every direct sample', () => {
    for (const clip of ['meadow_still', 'meadow_animal', 'frozen720', 'clean720'] as const) expect(measured(clip).activity, clip).toEqual(expect.any(Number));
  });

  it('stands clearly above a still meadow for the meadow with an animal, against the same baseline', () => {
    const still = measured('meadow_still').activity!;
    const animal = measured('meadow_animal').activity!;
    expect(animal).toBeGreaterThan(3 * Math.max(still, 0.5));
    const baseline = Array.from({ length: 6 }, () => still);
    expect(judgeActivity(animal, baseline, [])).toMatchObject({ basis: 'own', eventful: true });
    expect(judgeActivity(still, baseline, []).eventful).toBe(false);
  });

  it('is nothing for one frame repeated', () => {
    expect(measured('frozen720').activity).toBe(0);
  });
});

describe('fingerprints', () => {
  it('are kept for live samples, every decoded frame, with the segment each came from', () => {
    const print = analyses.get('meadow_animal')!.fingerprint!;
    expect(print.fps).toBe(25);
    expect(print.frames.length).toBe(200);
    expect(print.segments.every((s) => typeof s === 'number')).toBe(true);
  });

  it('a still scene matches itself and proves nothing; a moving one does not match itself elsewhere', () => {
    expect(findReplay(analyses.get('meadow_still')!.fingerprint!, analyses.get('meadow_still')!.fingerprint!)).toBeNull();
    expect(findReplay(analyses.get('frozen720')!.fingerprint!, analyses.get('frozen720')!.fingerprint!)).toBeNull();
    expect(findReplay(analyses.get('meadow_animal')!.fingerprint!, analyses.get('meadow_animal')!.fingerprint!)).toBeNull();
  });
});
