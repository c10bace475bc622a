/**
 * A looped recording is caught whatever moves in it (issue 40): clips the tests render
 * (tests/support/quality-corpus.ts) served as live HLS on 127.0.0.1, each analysed twice by the
 * real analyzer (ffmpeg) a few seconds apart, the second sample's fingerprint compared with the
 * first's as the app does (loop-check.ts). A recording replayed as live — served again segment
 * for segment, or played on a loop and encoded again by a restreamer — matches down to the noise;
 * a live camera, however quiet, never does. Each row says what the clip must be judged, and why;
 * the closeness of each pair's best match is printed, so a change in the measure shows in the log.
 * Through the whole app (database, queue, stream health): tests/quality/looped.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSafeFetcher } from '../../src/http/safe-fetch.ts';
import { DEFAULT_PLATFORM_SETTINGS } from '../../src/modules/platforms/settings.ts';
import { analyzeStream, type Analysis, type AnalyzerContext } from '../../src/modules/quality/analyzer/index.ts';
import { DEFAULT_MEDIA_TOOLS } from '../../src/modules/quality/analyzer/media-tools.ts';
import { findReplay, isMoving, type Fingerprint } from '../../src/modules/quality/analyzer/replay.ts';
import { startLiveEncoder, startRestreamer, type LiveEncoder } from '../support/live-encoder.ts';
import { serveCorpus, type CorpusServer } from '../support/quality-corpus.ts';

type Verdict = 'looped' | 'live';
/** Name → where its live stream comes from, what it must be judged, and why. */
const CASES: { name: string; verdict: Verdict; why: string }[] = [
  { name: 'quiet_loop8', verdict: 'looped', why: '8 s of a quiet meadow served again and again: nothing moves, but its noise comes back' },
  { name: 'animal_loop8', verdict: 'looped', why: '8 s of the meadow while an animal a tenth of the picture wide takes a few steps' },
  { name: 'moving8', verdict: 'looped', why: 'the project\'s own looped clip: a busy moving picture' },
  { name: 'restreamed', verdict: 'looped', why: 'the quiet 8 s played on a loop and encoded again live: the noise comes back under new encoding noise' },
  { name: 'quiet_still', verdict: 'live', why: 'a quiet hour: its noise never repeats (24 s before the clip plays again)' },
  { name: 'animal_flat', verdict: 'live', why: 'an animal crossing the quiet meadow' },
  { name: 'leaves', verdict: 'live', why: 'leaves stirring by a few pixels' },
  { name: 'night_still', verdict: 'live', why: 'heavy night noise' },
  { name: 'live-quiet', verdict: 'live', why: 'a live encoder of the quiet meadow at a camera\'s rate' },
  { name: 'live-animal', verdict: 'live', why: 'a live encoder of the meadow with an animal wandering, at a camera\'s rate' },
];

let corpus: CorpusServer;
const encoders = new Map<string, LiveEncoder>();
let fetcher: ReturnType<typeof createSafeFetcher>;
const prints = new Map<string, [Fingerprint, Fingerprint]>();
const pause = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

beforeAll(async () => {
  corpus = await serveCorpus();
  fetcher = createSafeFetcher({ allowHosts: ['127.0.0.1'] });
  const [restreamer, quiet, animal] = await Promise.all([startRestreamer(await corpus.recording('quiet_loop8')), startLiveEncoder('quiet', { cameraRate: true }), startLiveEncoder('quiet-animal', { cameraRate: true })]);
  encoders.set('restreamed', restreamer).set('live-quiet', quiet).set('live-animal', animal);
  const ctx: AnalyzerContext = { fetcher, tools: DEFAULT_MEDIA_TOOLS, platforms: DEFAULT_PLATFORM_SETTINGS, sampleSeconds: 8, sleep: pause };
  const url = (name: string) => encoders.get(name)?.url ?? corpus.live(name as Parameters<CorpusServer['live']>[0]);
  const analyze = async (name: string): Promise<Fingerprint> => {
    const analysis: Analysis = await analyzeStream({ url: url(name), latitude: null, longitude: null }, ctx);
    if (!analysis.fingerprint) throw new Error(`${name}: no fingerprint (${JSON.stringify(analysis.measurements)})`);
    return analysis.fingerprint;
  };
  // Two at a time (the machine has two cores); each pair's second sample 4 s after its first ends,
  // so the live window has moved on to other segments.
  const queue = [...CASES];
  const worker = async () => {
    for (let c = queue.shift(); c; c = queue.shift()) {
      const first = await analyze(c.name);
      await pause(4_000);
      prints.set(c.name, [first, await analyze(c.name)]);
    }
  };
  await Promise.all([worker(), worker()]);
  for (const { name } of CASES) {
    const [first, second] = prints.get(name)!;
    const replay = findReplay(second, first);
    console.log(`${name}: ${second.frames.length} frames at ${second.fps} fps, telling ${isMoving(second)}, replay ${replay ? `${replay.newerAt} s ↔ ${replay.olderAt} s, matched at ${replay.closeness} of its movement` : 'none'}`);
  }
}, 300_000);
afterAll(async () => {
  await Promise.all([...encoders.values()].map((e) => e.close()));
  await fetcher?.close();
  await corpus?.close();
});

describe('a recording replayed as live, by its second analysis', () => {
  it.each(CASES)('$name is $verdict: $why', ({ name, verdict }) => {
    const [first, second] = prints.get(name)!;
    // Both samples could tell: their frames differ down to the noise.
    expect(isMoving(first)).toBe(true);
    expect(isMoving(second)).toBe(true);
    // Neither 8 s sample repeats within itself (an 8 s loop needs 11 s to show 3 s twice).
    expect(findReplay(first, first)).toBeNull();
    const replay = findReplay(second, first);
    if (verdict === 'live') expect(replay).toBeNull();
    else expect(replay).toMatchObject({ seconds: 3 });
  });
});

describe('the same footage fetched twice is not a replay', () => {
  it('a sample compared with itself as an earlier analysis (the same segments) matches nothing', () => {
    const [first] = prints.get('quiet_loop8')!;
    expect(first.segments.every((s) => typeof s === 'number')).toBe(true);
    expect(findReplay({ ...first }, first)).toBeNull();
  });

  it('…while the same frames from other segments are a replay', () => {
    const [first] = prints.get('quiet_loop8')!;
    expect(findReplay({ ...first, segments: first.segments.map((s) => s! + 1000) }, first)).toMatchObject({ newerAt: 0, olderAt: 0 });
  });
});
