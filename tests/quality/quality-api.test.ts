/**
 * The quality API (spec §7) on the real queue: analyse one stream and wait for it, queue one,
 * analyse every active stream with live progress pushes, the history, bad input, and a missing
 * ffmpeg reported as an analysis error that leaves the stream's score alone.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnalyzeAllDto, AnalyzeDto, QualityAnalysisDto, QualityProgressDto, QualityRunDto, StreamDto } from '../../src/shared/api/index.ts';
import { Stream } from '../../src/modules/streams/stream.entity.ts';
import { adminHeaders, startTestApp, type TestApp } from '../support/app.ts';
import { buildStream } from '../support/factories.ts';
import { serveCorpus, type CorpusServer } from '../support/quality-corpus.ts';
import { openScreen, type TestScreen } from '../support/screens.ts';

let app: TestApp;
let broken: TestApp;
let corpus: CorpusServer;
const screens: TestScreen[] = [];
let clean: Stream;
let black: Stream;
let missing: Stream;

const quality = { concurrency: 2, reanalyzeHours: 6, recheckSeconds: 30, tools: { ffmpeg: 'ffmpeg', ffprobe: 'ffprobe' }, sampleSeconds: 4, sweepCron: null };

beforeAll(async () => {
  corpus = await serveCorpus();
  app = await startTestApp({ hub: true, jobs: true, appOptions: { fetchAllowHosts: ['127.0.0.1'] }, settings: { quality } });
  const em = app.orm.em.fork();
  await em.nativeUpdate(Stream, {}, { active: false });
  clean = await buildStream(em, { name: 'Clean cam', url: corpus.live('clean720') });
  black = await buildStream(em, { name: 'Black cam', url: corpus.live('black720') });
  missing = await buildStream(em, { name: 'Missing cam', url: corpus.missing });
  // A second node on the same database whose ffmpeg is missing.
  broken = await startTestApp({ database: app.db, appOptions: { fetchAllowHosts: ['127.0.0.1'] }, settings: { quality: { ...quality, tools: { ffmpeg: '/nonexistent/ffmpeg', ffprobe: '/nonexistent/ffprobe' } } }, jobs: { enabled: false } });
}, 120_000);
afterAll(async () => {
  screens.forEach((s) => s.close());
  await broken?.close();
  await app?.close();
  await corpus?.close();
});

describe('POST /api/quality?action=analyze', () => {
  it('with wait: answers the analysis, and the stream follows it', async () => {
    const res = await app.request<AnalyzeDto>('POST', '/api/quality?action=analyze', { streamId: clean.id, wait: true });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.analysis).toMatchObject({ stream_id: clean.id, score: 80, faults: [], notes: [], method: 'sample', trigger: 'manual', error: null });
    expect(res.body.analysis!.metrics).toMatchObject({ format: 'hls', probe: { width: 1280, height: 720 } });
    const stream = (await app.request<StreamDto>('GET', `/api/streams/${clean.id}`)).body;
    expect(stream).toMatchObject({ quality_score: 80, quality_confidence: 0.9, health: 'live', playback: { sync_latency_ms: null, start_bandwidth: null } });
    expect(stream.quality_assessed_at).toBeTruthy();
  }, 60_000);

  it('says what it cannot tell as notes, not faults: a still scene whose noise the encoder erased stays live', async () => {
    const quiet = await buildStream(app.orm.em.fork(), { name: 'Quiet cam at a low rate', url: corpus.live('quiet_still_crf') });
    const res = await app.request<AnalyzeDto>('POST', '/api/quality?action=analyze', { streamId: quiet.id, wait: true });
    // Nor could it show a looped recording: its frames do not differ enough to hold one.
    const notes = ["still or frozen — can't tell", "live or looped — can't tell"];
    expect(res.body.analysis).toMatchObject({ faults: [], notes });
    const [listed] = (await app.request<QualityAnalysisDto[]>('GET', `/api/quality/analyses?streamId=${quiet.id}`)).body;
    expect(listed!.notes).toEqual(notes);
    expect((await app.request<StreamDto>('GET', `/api/streams/${quiet.id}`)).body.health).toBe('live');
    await app.request('DELETE', '/api/streams', { id: quiet.id });
  }, 60_000);

  it('answers a fresh analysis again without force, and analyses anew with it', async () => {
    const again = await app.request<AnalyzeDto>('POST', '/api/quality?action=analyze', { streamId: clean.id });
    expect(again.body).toMatchObject({ queued: false, analysis: { stream_id: clean.id } });
    const queued = await app.request<AnalyzeDto>('POST', '/api/quality?action=analyze', { streamId: clean.id, force: true });
    expect(queued.status).toBe(202);
    expect(queued.body).toEqual({ queued: true, analysis: null });
    await expect.poll(async () => (await app.request<QualityAnalysisDto[]>('GET', `/api/quality/analyses?streamId=${clean.id}`)).body.length, { timeout: 30_000 }).toBe(2);
  }, 60_000);

  it('answers bad input with a 4xx and a sentence', async () => {
    const cases: [string, unknown, number, string][] = [
      ['/api/quality?action=analyze', {}, 400, 'streamId: Required'],
      ['/api/quality?action=analyze', { streamId: 'x' }, 400, 'streamId'],
      ['/api/quality?action=analyze', { streamId: 999999 }, 404, 'Stream not found: 999999'],
      ['/api/quality?action=dance', {}, 400, 'Unknown action'],
      ['/api/quality', {}, 400, 'action'],
    ];
    for (const [path, body, status, message] of cases) {
      const res = await app.request<{ error: string }>('POST', path, body);
      expect(res.status, path).toBe(status);
      expect(res.body.error).toContain(message);
    }
    expect((await app.anonymous('POST', '/api/quality?action=analyze', { streamId: clean.id })).status).toBe(401);
  });

  it('reports a missing ffmpeg as the analysis error and leaves the score alone', async () => {
    const res = await broken.request<AnalyzeDto>('POST', '/api/quality?action=analyze', { streamId: clean.id, wait: true, force: true });
    expect(res.status).toBe(200);
    expect(res.body.analysis).toMatchObject({ score: null, error: expect.stringMatching(/^ffprobe not found/) });
    expect((await app.request<StreamDto>('GET', `/api/streams/${clean.id}`)).body.quality_score).toBe(80);
  }, 60_000);
});

describe('POST /api/quality?action=analyze-all', () => {
  it('queues every active stream and pushes progress until done, failures counted', async () => {
    const admin = openScreen(app.baseUrl, { kind: 'admin' }, adminHeaders);
    screens.push(admin);
    await admin.waitFor((s) => s !== null);
    const seen: QualityProgressDto[] = [];
    admin.client.socket.on('quality:progress', (p) => seen.push(p));

    const res = await app.request<AnalyzeAllDto>('POST', '/api/quality?action=analyze-all', {});
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.run).toMatchObject({ total: 3, done: 0, failed: 0, finished_at: null });
    const again = await app.request<{ error: string }>('POST', '/api/quality?action=analyze-all', {});
    expect(again.status).toBe(409);

    await expect.poll(() => seen.some((p) => p.run?.finished_at), { timeout: 60_000 }).toBe(true);
    // Two workers publish side by side, so pushes may arrive out of order: their versions say which is newest.
    const last = seen.filter((p) => p.run?.id === res.body.run.id).sort((a, b) => a.version - b.version).at(-1)!;
    expect(last.run).toMatchObject({ total: 3, done: 3, failed: 1 });
    expect(seen.some((p) => p.status === 'analyzing' && p.stream_id === black.id)).toBe(true);
    const blackDone = seen.find((p) => p.status === 'done' && p.stream_id === black.id)!;
    expect(blackDone.analysis).toMatchObject({ faults: expect.arrayContaining(['black']), trigger: 'all' });
    expect(blackDone.analysis!.score!).toBeLessThan(40);
    const missingDone = seen.find((p) => p.stream_id === missing.id && p.status !== 'analyzing')!;
    expect(missingDone.analysis).toMatchObject({ score: 0, faults: ['unreachable'], error: 'The playlist answered HTTP 404' });
    const latest = await app.request<{ run: QualityRunDto }>('GET', '/api/quality/runs/latest');
    expect(latest.body.run).toMatchObject({ id: res.body.run.id, done: 3, failed: 1 });
    expect(new Set(seen.map((p) => p.version)).size).toBe(seen.length); // every push carries its own version
  }, 90_000);
});
