/** The quality score (src/shared/quality/score.ts) and health hysteresis (health.ts), table by table. */
import { describe, expect, it } from 'vitest';
import { nextHealth } from '../../src/shared/quality/health.ts';
import { LIVE_OR_LOOPED, scoreQuality, STILL_OR_FROZEN, type QualityMeasurements } from '../../src/shared/quality/score.ts';

const clean = (over: Partial<QualityMeasurements> = {}): QualityMeasurements => ({
  method: 'sample', reachable: true, live: true, width: 1280, height: 720, fps: 25, bitrateKbps: 2500,
  blackRatio: 0, frozenRatio: 0, blur: 5, brightness: 120, motion: 1, ttfbMs: 100, ...over,
});

describe('scoreQuality', () => {
  it.each([
    ['2160p', clean({ width: 3840, height: 2160, bitrateKbps: 16000 }), 100, []],
    ['1080p', clean({ width: 1920, height: 1080, bitrateKbps: 5000 }), 92, []],
    ['720p', clean(), 80, []],
    ['480p', clean({ width: 854, height: 480 }), 62, []],
    ['360p', clean({ width: 640, height: 360, bitrateKbps: 700 }), 50, []],
    ['240p', clean({ width: 426, height: 240, bitrateKbps: 400 }), 35, []],
    ['20 fps', clean({ fps: 20 }), 72, []],
    ['10 fps', clean({ fps: 10 }), 62, ['low-fps']],
    ['4 fps', clean({ fps: 4 }), 50, ['low-fps']],
    ['starved bitrate', clean({ bitrateKbps: 300 }), 70, ['low-bitrate']],
    ['VOD posing as live', clean({ live: false }), 40, ['not-live']],
    ['blurry', clean({ blur: 18 }), 55, ['blurry']],
    ['slow first byte', clean({ ttfbMs: 4500 }), 75, ['slow']],
    ['black', clean({ blackRatio: 0.99, frozenRatio: 1, bitrateKbps: 40 }), 25, ['black', 'frozen']],
    ['frozen', clean({ frozenRatio: 1, bitrateKbps: 180 }), 30, ['frozen']],
    ['unreachable', { method: 'sample', reachable: false } as QualityMeasurements, 0, ['unreachable']],
  ] as const)('%s', (_name, measurements, score, faults) => {
    const result = scoreQuality(measurements);
    expect(result.score).toBe(score);
    expect(result.faults).toEqual(faults);
  });

  it('calls a dark picture at night a note, not a fault, with less confidence', () => {
    const result = scoreQuality(clean({ blackRatio: 0.99, frozenRatio: 1, night: true }));
    expect(result.faults).toEqual([]);
    expect(result.notes).toEqual(['night']);
    expect(result.confidence).toBe(0.6);
  });

  it('names a picture that repeats where nothing can tell still from stuck a note, not a fault', () => {
    const cantTell = scoreQuality(clean({ frozenRatio: 0.96, stillness: 'cant-tell', bitrateKbps: 108 }));
    expect(cantTell).toMatchObject({ score: 80, faults: [], notes: [STILL_OR_FROZEN], confidence: 0.6 });
    // Frozen stays a fault when the evidence says so, and with analyses made before stillness was measured.
    expect(scoreQuality(clean({ frozenRatio: 0.81, stillness: 'frozen' }))).toMatchObject({ score: 30, faults: ['frozen'] });
    expect(scoreQuality(clean({ frozenRatio: 0.81 }))).toMatchObject({ score: 30, faults: ['frozen'] });
    // A picture that changes is not frozen, whatever it says of itself.
    expect(scoreQuality(clean({ frozenRatio: 0.2, stillness: 'changing' })).faults).toEqual([]);
  });

  it('says when a live sample could not show a looped recording, unless the picture is frozen or black anyway', () => {
    expect(scoreQuality(clean({ looped: null }))).toMatchObject({ score: 80, faults: [], notes: [LIVE_OR_LOOPED] });
    expect(scoreQuality(clean({ looped: false })).notes).toEqual([]);
    expect(scoreQuality(clean({ looped: true }))).toMatchObject({ score: 40, faults: ['looped'], notes: [] });
    // Still or frozen can't be told either: both are said.
    expect(scoreQuality(clean({ looped: null, frozenRatio: 0.96, stillness: 'cant-tell' })).notes).toEqual([STILL_OR_FROZEN, LIVE_OR_LOOPED]);
    expect(scoreQuality(clean({ looped: null, frozenRatio: 0.96, stillness: 'frozen' })).notes).toEqual([]);
    expect(scoreQuality(clean({ looped: null, blackRatio: 0.99, frozenRatio: 1 })).notes).toEqual([]);
    // Analyses without a print (files, embeds) say nothing of loops.
    expect(scoreQuality(clean()).notes).toEqual([]);
  });

  it('is less sure of what it measured less of', () => {
    expect(scoreQuality(clean()).confidence).toBe(0.9);
    expect(scoreQuality({ method: 'api', reachable: true, live: true, definition: 'hd' })).toEqual({ score: 85, confidence: 0.6, faults: [], notes: [] });
    expect(scoreQuality({ method: 'oembed', reachable: true })).toEqual({ score: 70, confidence: 0.35, faults: [], notes: [] });
    expect(scoreQuality({ method: 'api', reachable: true, live: false, definition: 'sd' })).toMatchObject({ score: 15, faults: ['not-live'] });
  });

  it('gives what is not video a very low score', () => {
    expect(scoreQuality({ method: 'sample', reachable: true, width: 0, error: 'The video could not be read' })).toMatchObject({ score: 5, faults: ['no-video'] });
  });

  it('keeps every defect at least 15 points under the clean stream of its size, and black and frozen under 40', () => {
    const base = scoreQuality(clean()).score;
    for (const defect of [clean({ fps: 4 }), clean({ live: false }), clean({ blur: 18 }), clean({ blackRatio: 1 }), clean({ frozenRatio: 1 })]) {
      expect(base - scoreQuality(defect).score).toBeGreaterThanOrEqual(15);
    }
    expect(scoreQuality(clean({ blackRatio: 1 })).score).toBeLessThan(40);
    expect(scoreQuality(clean({ frozenRatio: 1 })).score).toBeLessThan(40);
  });
});

describe('nextHealth (hysteresis)', () => {
  it.each([
    ['a first failure does not take a live stream off the wall', 'live', 0, ['unreachable'], false, 'live', 1],
    ['a second failure in a row does', 'live', 1, ['unreachable'], false, 'offline', 2],
    ['one failure with 30 s of failing screens does', 'live', 0, ['unreachable'], true, 'offline', 1],
    ['an offline stream stays offline while it fails', 'offline', 5, ['unreachable'], false, 'offline', 6],
    ['one good check brings it back', 'offline', 6, [], false, 'live', 0],
    ['black, frozen or not live is degraded, not offline', 'live', 0, ['black', 'frozen'], false, 'degraded', 0],
    ['a never-checked stream that fails once stays unknown', 'unknown', 0, ['unreachable'], false, 'unknown', 1],
    ['blurry is still live', 'degraded', 0, ['blurry'], false, 'live', 0],
  ] as const)('%s', (_name, current, failedChecks, faults, screensFailing, health, failed) => {
    expect(nextHealth({ current, failedChecks, faults, screensFailing })).toEqual({ health, failedChecks: failed });
  });
});
