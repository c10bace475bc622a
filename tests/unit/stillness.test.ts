/** Whether a picture repeats (src/modules/quality/analyzer/stillness.ts), table by table. */
import { describe, expect, it } from 'vitest';
import { judgeStillness, NOISE_BPP, SAME_MAX } from '../../src/modules/quality/analyzer/stillness.ts';

/** `n` pairs: `same` of them the same picture (identical when `identical`), the rest changing by sensor noise. */
const pairs = (n: number, same: number, identical = false) => Array.from({ length: n }, (_, i) => (i < same ? (identical ? 0 : SAME_MAX / 5) : 0.46));

describe('judgeStillness', () => {
  it.each([
    ['a quiet live scene: every pair differs by its noise', pairs(79, 0), 0.21, 'changing'],
    ['half the pairs the same is not yet repeating', pairs(80, 40), 0.21, 'changing'],
    ['a stuck source at a constant bitrate: the same, not identical, bits to spare', pairs(79, 64), 0.178, 'frozen'],
    ['one frame repeated to the bit, at any rate', pairs(79, 78, true), 0.008, 'frozen'],
    ['a still scene whose noise the encoder erased: can\'t tell', pairs(79, 76), 0.01, 'cant-tell'],
    ['the same, its bitrate unknown', pairs(79, 76), null, 'cant-tell'],
    ['the same at the noise bitrate: frozen', pairs(79, 76), NOISE_BPP, 'frozen'],
  ] as const)('%s', (_name, changes, bpp, verdict) => {
    expect(judgeStillness(changes, bpp)?.verdict).toBe(verdict);
  });

  it('counts what it judged from', () => {
    expect(judgeStillness(pairs(10, 6, true), null)).toEqual({ verdict: 'frozen', repeatRatio: 0.6, identicalRatio: 0.6, changeMedian: 0, pairs: 10 });
  });

  it('says nothing with fewer than three pairs', () => {
    expect(judgeStillness([0, 0], 1)).toBeNull();
    expect(judgeStillness([], null)).toBeNull();
  });
});
