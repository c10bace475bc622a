/**
 * Recordings posing as live, through the real app, queue and analyzer: an 8 s clip served as an
 * endless live stream — busy, a quiet meadow where only the noise changes, or the meadow while an
 * animal takes a few steps — is a looped recording after its second analysis, a 30 s one within a
 * few; the stream is degraded, says why with both analyses' times, and leaves pool walls unless
 * an admin marks the recording fine. A live camera that never repeats — ffmpeg encoding while
 * the test runs (tests/support/live-encoder.ts) — is never taken for one, still or moving, and
 * its analyses could tell (no "can't tell" note). Only a stream's last prints are kept, and an
 * earlier release's prints are passed over.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnalyzeDto, SceneStreamDto, StreamDto } from '../../src/shared/api/index.ts';
import { LIVE_OR_LOOPED } from '../../src/shared/quality/score.ts';
import { Stream } from '../../src/modules/streams/stream.entity.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { buildStream } from '../support/factories.ts';
import { startLiveEncoder, type LiveEncoder } from '../support/live-encoder.ts';
import { serveCorpus, type CorpusServer } from '../support/quality-corpus.ts';

let app: TestApp;
let corpus: CorpusServer;
const encoders: LiveEncoder[] = [];

beforeAll(async () => {
  corpus = await serveCorpus();
  encoders.push(...(await Promise.all([startLiveEncoder('still'), startLiveEncoder('moving'), startLiveEncoder('quiet', { cameraRate: true }), startLiveEncoder('quiet-animal', { cameraRate: true })])));
  app = await startTestApp({ jobs: true, appOptions: { fetchAllowHosts: ['127.0.0.1'] }, settings: { quality: { concurrency: 2, sweepCron: null, rankingBudget: { everyMinutes: 0, streams: 1 } } } });
  await app.orm.em.fork().nativeUpdate(Stream, {}, { active: false }); // the seed's streams stay out of the way
}, 120_000);
afterAll(async () => {
  await Promise.all(encoders.map((e) => e.close()));
  await app?.close();
  await corpus?.close();
});

const analyze = async (streamId: number) => {
  const res = await app.request<AnalyzeDto>('POST', '/api/quality?action=analyze', { streamId, force: true, wait: true });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  if (process.env.DEBUG_LOOP) console.log(JSON.stringify(res.body).slice(0, 1500));
  return res.body.analysis!;
};
const printsOf = async (streamId: number) => {
  const rows = await app.orm.em.fork().execute<{ version: number }[]>('select get_byte(fingerprint, 0) as version from quality_analyses where stream_id = ? and fingerprint is not null', [streamId]);
  return rows.map((r) => r.version);
};
const streamOf = async (id: number) => (await app.request<StreamDto>('GET', `/api/streams/${id}`)).body;
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('a clip served as an endless live stream', () => {
  it.each([
    ['moving8', 'a busy moving picture'],
    ['quiet_loop8', 'a quiet meadow: only the noise changes, and it comes back'],
    ['animal_loop8', 'the meadow while an animal a tenth of the picture wide takes a few steps'],
  ] as const)('is a looped recording after its second analysis (%s: %s)', async (clip, _what) => {
    const stream = await buildStream(app.orm.em.fork(), { name: `Eight-second loop ${clip}`, url: corpus.live(clip) });
    await analyze(stream.id);
    expect((await streamOf(stream.id)).looped).toBeNull();
    await pause(4_000); // the window moves on: the next sample's segments are new ones
    await analyze(stream.id);
    const after = await streamOf(stream.id);
    expect(after.looped).toMatchObject({ kind: 'replay' });
    expect(after.looped!.earlier_at < after.looped!.found_at).toBe(true);
    expect(after.health_faults).toContain('looped');
    expect(after.health).toBe('degraded');
  }, 60_000);

  it('is found within a few analyses for a 30 s clip', async () => {
    const stream = await buildStream(app.orm.em.fork(), { name: 'Thirty-second loop', url: corpus.live('moving30') });
    let analysesRun = 0;
    while (analysesRun < 6 && !(await streamOf(stream.id)).looped) {
      await analyze(stream.id);
      analysesRun++;
      await pause(3_000);
    }
    expect((await streamOf(stream.id)).looped, `after ${analysesRun} analyses`).toMatchObject({ kind: 'replay' });
    expect(analysesRun).toBeLessThanOrEqual(6);
  }, 120_000);

  it('leaves pool walls until an admin marks the recording fine, and its health follows the mark', async () => {
    corpus.setAlias('poolloop', 'moving8'); // the same clip under an address of its own
    const looped = await buildStream(app.orm.em.fork(), { name: 'Looped pool cam', url: corpus.alias('poolloop'), qualityScore: 99 });
    await analyze(looped.id);
    await pause(4_000);
    await analyze(looped.id);
    expect((await streamOf(looped.id)).looped).not.toBeNull();
    const scene = await app.request<{ id: number }>('POST', '/api/scenes', { name: 'Newest cams', selection_algorithm: 'recent', max_streams: 5 });
    const shown = async () => (await app.request<SceneStreamDto[]>('GET', `/api/scenes/${scene.body.id}/streams`)).body.map((s) => s.id);
    expect(await shown()).not.toContain(looped.id);
    const marked = await app.request<{ stream: StreamDto }>('PUT', '/api/streams', { id: looped.id, recording_ok: true });
    expect(marked.body.stream).toMatchObject({ recording_ok: true, health: 'live' });
    expect(await shown()).toContain(looped.id);
  }, 60_000);
});

describe('a live camera that never repeats', () => {
  // `telling`: whether its samples can show a replay. x264's default rate erases a still
  // picture's noise (nothing differs from frame to frame but what moves): that one says it cannot
  // tell, rather than calling it live.
  it.concurrent.each([
    ['still, x264\'s default rate', false, 0],
    ['moving, x264\'s default rate', true, 1],
    ['a quiet meadow at a camera\'s rate', true, 2],
    ['an animal wandering the quiet meadow, at a camera\'s rate', true, 3],
  ] as const)('is never taken for a recording (%s; can tell: %s)', async (_kind, telling, index) => {
    const stream = await buildStream(app.orm.em.fork(), { name: `Live encoder ${index}`, url: encoders[index]!.url });
    for (let i = 0; i < 3; i++) {
      const analysis = await analyze(stream.id);
      // "Can't tell" leaves looped null too: each analysis says which it was.
      expect(analysis.notes.includes(LIVE_OR_LOOPED)).toBe(!telling);
      await pause(4_000);
    }
    const after = await streamOf(stream.id);
    expect(after.looped).toBeNull();
    expect(after.health_faults).not.toContain('looped');
    expect(after.activity).toEqual(expect.any(Number));
  }, 90_000);
});

describe('prints', () => {
  it('only a stream\'s last six are kept; an earlier release\'s print is passed over, and dropped in turn', async () => {
    const stream = await buildStream(app.orm.em.fork(), { name: 'Kept prints', url: `${encoders[2]!.url}?kept` });
    // An earlier release's print: 8-bit frames of 144 bytes, no version byte.
    await app.orm.em.fork().execute(
      `insert into quality_analyses (stream_id, score, confidence, method, faults, metrics, trigger, duration_ms, fingerprint, fingerprint_fps, fingerprint_segments, created_at)
        values (?, 50, 0.9, 'sample', '[]', '{}', 'manual', 1000, ?, 5, '[]', now() - interval '1 minute')`,
      [stream.id, Buffer.alloc(144 * 40, 7)],
    );
    for (let i = 0; i < 7; i++) {
      const analysis = await analyze(stream.id);
      expect(analysis.error).toBeNull();
    }
    const versions = await printsOf(stream.id);
    expect(versions).toHaveLength(6);
    expect(versions.every((v) => v === 2)).toBe(true);
    expect((await streamOf(stream.id)).looped).toBeNull();
  }, 120_000);
});
