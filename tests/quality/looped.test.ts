/**
 * Recordings posing as live, through the real app, queue and analyzer: a moving 8 s clip served
 * as an endless live stream is a looped recording after its second analysis, a 30 s one within a
 * few; the stream is degraded, says why with both analyses' times, and leaves pool walls unless
 * an admin marks the recording fine. A live camera that never repeats — ffmpeg encoding while
 * the test runs (tests/support/live-encoder.ts) — is never taken for one, still or moving.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnalyzeDto, SceneStreamDto, StreamDto } from '../../src/shared/api/index.ts';
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
  encoders.push(await startLiveEncoder('still'), await startLiveEncoder('moving'));
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
};
const streamOf = async (id: number) => (await app.request<StreamDto>('GET', `/api/streams/${id}`)).body;
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('a clip served as an endless live stream', () => {
  it('is a looped recording after its second analysis (8 s clip)', async () => {
    const stream = await buildStream(app.orm.em.fork(), { name: 'Eight-second loop', url: corpus.live('moving8') });
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
  it.concurrent.each([
    ['still', 0],
    ['moving', 1],
  ] as const)('is never taken for a recording (%s)', async (_kind, index) => {
    const stream = await buildStream(app.orm.em.fork(), { name: `Live encoder ${index}`, url: encoders[index]!.url });
    for (let i = 0; i < 3; i++) {
      await analyze(stream.id);
      await pause(4_000);
    }
    const after = await streamOf(stream.id);
    expect(after.looped).toBeNull();
    expect(after.health_faults).not.toContain('looped');
    expect(after.activity).toEqual(expect.any(Number));
  }, 90_000);
});
