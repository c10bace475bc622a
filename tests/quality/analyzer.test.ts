/**
 * The analyzer on a corpus rendered by ffmpeg and served on 127.0.0.1 through the safe fetcher:
 * clean 1080p, 720p and 360p live-style HLS, an MP4, black, frozen, blurred and 4 fps streams, a
 * VOD playlist posing as live, a stale one and a 404. The scores rank them sensibly and the
 * faults are named; a dark picture where it is night is not called black; a missing ffmpeg is a
 * clear analysis error.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { getPosition } from 'suncalc';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSafeFetcher, type SafeFetcher } from '../../src/http/safe-fetch.ts';
import { DEFAULT_PLATFORM_SETTINGS } from '../../src/modules/platforms/settings.ts';
import { analyzeStream, type Analysis, type AnalyzerContext } from '../../src/modules/quality/analyzer/index.ts';
import { DEFAULT_MEDIA_TOOLS, MediaToolError } from '../../src/modules/quality/analyzer/media-tools.ts';
import { readHls } from '../../src/modules/quality/analyzer/hls.ts';
import { stillOfSample } from '../../src/modules/quality/analyzer/still.ts';
import { syncLatencyMs } from '../../src/shared/streams/playback.ts';
import { qualityGrade } from '../../src/shared/quality/grade.ts';
import { scoreQuality, type QualityResult } from '../../src/shared/quality/score.ts';
import { CORPUS_DIR, serveCorpus, type CorpusServer } from '../support/quality-corpus.ts';

let corpus: CorpusServer;
let fetcher: SafeFetcher;
let ctx: AnalyzerContext;
const results = new Map<string, QualityResult>();
const stills = new Map<string, Analysis['still']>();

beforeAll(async () => {
  corpus = await serveCorpus();
  fetcher = createSafeFetcher({ allowHosts: ['127.0.0.1'] });
  ctx = { fetcher, tools: DEFAULT_MEDIA_TOOLS, platforms: DEFAULT_PLATFORM_SETTINGS, sampleSeconds: 8, sleep: (ms) => new Promise((r) => setTimeout(r, ms)) };
  const cases: [string, string][] = [
    ['clean1080', corpus.live('clean1080')],
    ['clean720', corpus.live('clean720')],
    ['clean360', corpus.live('clean360')],
    ['mp4', corpus.mp4],
    ['black', corpus.live('black720')],
    ['frozen', corpus.live('frozen720')],
    ['blurred', corpus.live('blurred720')],
    ['fps4', corpus.live('fps4_720')],
    ['vod', corpus.vod('clean720')],
    ['stale', corpus.stale('clean720')],
    ['missing', corpus.missing],
  ];
  for (const [name, url] of cases) {
    const analysis = await analyzeStream({ url, latitude: null, longitude: null }, ctx);
    results.set(name, scoreQuality(analysis.measurements));
    stills.set(name, analysis.still);
  }
}, 240_000);
afterAll(async () => {
  await fetcher?.close();
  await corpus?.close();
});

const score = (name: string) => results.get(name)!.score;
const faults = (name: string) => results.get(name)!.faults;

describe('the corpus', () => {
  it('ranks clean streams by resolution, first', () => {
    expect(score('clean1080')).toBeGreaterThan(score('clean720'));
    expect(score('clean720')).toBeGreaterThan(score('clean360'));
    expect(qualityGrade(score('clean1080'))).toMatch(/^A/);
    for (const name of ['clean1080', 'clean720', 'clean360', 'mp4']) expect(faults(name), name).toEqual([]);
    expect(score('mp4')).toBe(score('clean720'));
  });

  it('names each defect and puts it at least 15 points under the clean stream of its size', () => {
    const expected: Record<string, string> = { black: 'black', frozen: 'frozen', blurred: 'blurry', fps4: 'low-fps', vod: 'not-live', stale: 'not-live' };
    for (const [name, fault] of Object.entries(expected)) {
      expect(faults(name), name).toContain(fault);
      expect(score('clean720') - score(name), name).toBeGreaterThanOrEqual(15);
    }
    expect(score('black')).toBeLessThan(40);
    expect(score('frozen')).toBeLessThan(40);
    expect(qualityGrade(score('black'))).toBe('F');
  });

  it('puts a dead stream last, unreachable', () => {
    expect(results.get('missing')).toMatchObject({ score: 0, faults: ['unreachable'] });
    const ranked = [...results.entries()].sort((a, b) => b[1].score - a[1].score).map(([name]) => name);
    expect(ranked[0]).toBe('clean1080');
    expect(ranked.at(-1)).toBe('missing');
  });
});

describe('stills', () => {
  it('keeps one JPEG frame of each readable sample, 320 px wide at most, and none of a dead stream', () => {
    for (const name of ['clean1080', 'clean720', 'mp4', 'black', 'frozen']) {
      const still = stills.get(name);
      expect(still, name).toMatchObject({ contentType: 'image/jpeg', width: 320, height: 180 });
      expect([...still!.bytes.subarray(0, 3)], name).toEqual([0xff, 0xd8, 0xff]);
    }
    expect(stills.get('missing')).toBeUndefined();
  });

  it('takes the first frame when the middle of the sample has none (a live window across the clip\'s loop)', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'nw-still-wrap-'));
    try {
      // The last two segments, then the first two: timestamps jump back, as where a live playlist loops.
      const segments = ['seg010.ts', 'seg011.ts', 'seg000.ts', 'seg001.ts'].map((name) => readFile(path.join(CORPUS_DIR, 'clean720', name)));
      const file = path.join(dir, 'sample.ts');
      await writeFile(file, Buffer.concat(await Promise.all(segments)));
      const still = await stillOfSample(DEFAULT_MEDIA_TOOLS, file, dir, 8);
      expect(still).toMatchObject({ contentType: 'image/jpeg', width: 320, height: 180 });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe("what screens are told about an HLS stream's playback", () => {
  const read = (url: string) => readHls(fetcher, url, { sampleSeconds: 2, sleep: (ms) => new Promise((r) => setTimeout(r, ms)) });

  it('a master playlist: start at its cheapest variant of at least 360p; no program time, no shared latency', async () => {
    const reading = await read(corpus.ladder);
    expect(reading.variant).toMatchObject({ height: 1080 }); // the analysis still samples the best one
    expect(reading.playback).toEqual({ start_bandwidth: 800_000, sync_latency_ms: null, camera_skew_ms: null });
  }, 30_000);

  it('program date-time: every screen plays three target durations and a second behind it', async () => {
    expect((await read(corpus.withProgramTime('clean360'))).playback).toEqual({ start_bandwidth: null, sync_latency_ms: syncLatencyMs(2), camera_skew_ms: null });
    expect((await read(corpus.live('clean360'))).playback).toEqual({ start_bandwidth: null, sync_latency_ms: null, camera_skew_ms: null });
  }, 30_000);

  it("a window too short for that latency: the latency shrinks to fit it, for every screen alike", async () => {
    expect((await read(corpus.withProgramTime('clean360', { window: 3 }))).playback).toEqual({ start_bandwidth: null, sync_latency_ms: 5_000, camera_skew_ms: null });
  }, 30_000);

  it("a camera whose clock is off by more than its window: the skew, in whole seconds, for screens and the console", async () => {
    const off = async (shiftMs: number) => (await read(corpus.withProgramTime('clean360', { shiftMs, window: 3 }))).playback.camera_skew_ms;
    expect(await off(3_600_000)).toBeOneOf([3_598_000, 3_599_000, 3_600_000]); // its edge is up to a segment old when read
    expect(await off(-10_000)).toBeOneOf([-10_000, -11_000, -12_000]); // a slow camera's edge also lags by up to a segment
    expect(await off(6_000)).toBeOneOf([4_000, 5_000, 6_000]);
  }, 60_000);
});

describe('night and tools', () => {
  it('does not call a dark picture black where it is night', async () => {
    // The point on the equator opposite the sun: deep night, whenever the test runs.
    const now = new Date();
    let longitude = 0;
    for (let lon = -180; lon < 180; lon += 5) if (getPosition(now, 0, lon).altitude < getPosition(now, 0, longitude).altitude) longitude = lon;
    const night = await analyzeStream({ url: corpus.live('black720'), latitude: 0, longitude }, { ...ctx, now: () => now });
    const result = scoreQuality(night.measurements);
    expect(night.measurements.night).toBe(true);
    expect(result.faults).not.toContain('black');
    expect(result.notes).toContain('night');
  }, 60_000);

  it('reports a missing ffmpeg as such, never crashing', async () => {
    const error = await analyzeStream({ url: corpus.live('clean360'), latitude: null, longitude: null }, { ...ctx, tools: { ffmpeg: '/nonexistent/ffmpeg', ffprobe: '/nonexistent/ffprobe' } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MediaToolError);
    expect((error as Error).message).toMatch(/^ffprobe not found/);
  }, 60_000);

  it('reads what a stream sent as a local file only: a playlist disguised as a video fetches nothing', async () => {
    const analysis = await analyzeStream({ url: corpus.disguised, latitude: null, longitude: null }, ctx);
    expect(scoreQuality(analysis.measurements).faults).toEqual(['no-video']);
    expect(corpus.requests.filter((r) => r.includes('via=ffmpeg'))).toEqual([]);
  }, 60_000);

  it('never lets ffmpeg near an address the safe fetcher refuses', async () => {
    const strict = createSafeFetcher({ resolver: async () => [{ address: '127.0.0.1', family: 4 }] });
    try {
      const analysis = await analyzeStream({ url: 'http://cams.example.test/live.m3u8', latitude: null, longitude: null }, { ...ctx, fetcher: strict });
      expect(analysis.measurements).toMatchObject({ reachable: false, error: 'The address is not allowed (not a public address)' });
    } finally {
      await strict.close();
    }
  });
});
