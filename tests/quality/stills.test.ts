/**
 * Stills: every analysis leaves a picture of what the stream shows — a ≈ 320 px JPEG frame of a
 * direct stream's sample (the corpus on 127.0.0.1), or an embedded stream's platform thumbnail
 * (the fixture platforms), fetched through the safe fetcher and stored — served from our origin
 * at GET /api/streams/:id/still with an ETag and a 5-minute public cache, replaced by the next
 * analysis and gone with its stream. A thumbnail on a private address, or one that is not a
 * picture, is refused without failing the analysis.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnalyzeDto, StreamDto, StreamPageDto } from '../../src/shared/api/index.ts';
import { Stream } from '../../src/modules/streams/stream.entity.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { buildStream } from '../support/factories.ts';
import { PAGE_THUMBNAIL_VIDEO, PRIVATE_THUMBNAIL_VIDEO, startPlatformFixtures, type PlatformFixtures } from '../support/platforms.ts';
import { serveCorpus, type CorpusServer } from '../support/quality-corpus.ts';

const run = promisify(execFile);

let app: TestApp;
let corpus: CorpusServer;
let fixtures: PlatformFixtures;

const quality = { concurrency: 1, reanalyzeHours: 6, recheckSeconds: 30, tools: { ffmpeg: 'ffmpeg', ffprobe: 'ffprobe' }, sampleSeconds: 4, sweepCron: null };

beforeAll(async () => {
  corpus = await serveCorpus();
  fixtures = await startPlatformFixtures();
  app = await startTestApp({ jobs: true, appOptions: { fetchAllowHosts: ['127.0.0.1'] }, settings: { quality, platforms: fixtures.settings } });
  await app.orm.em.fork().nativeUpdate(Stream, {}, { active: false }); // the seed's streams stay out of the way
}, 120_000);
afterAll(async () => {
  await app?.close();
  await fixtures?.close();
  await corpus?.close();
});

interface StoredStill {
  content_type: string;
  width: number;
  height: number;
  bytes: Buffer;
  taken_at: Date;
}

const storedStills = (streamId: number) =>
  app.orm.em.fork().execute<StoredStill[]>('select content_type, width, height, bytes, taken_at from stream_stills where stream_id = ?', [streamId], 'all');

async function analyze(streamId: number): Promise<AnalyzeDto['analysis']> {
  const res = await app.request<AnalyzeDto>('POST', '/api/quality?action=analyze', { streamId, wait: true, force: true });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.analysis;
}

const streamOf = async (id: number) => (await app.request<StreamDto>('GET', `/api/streams/${id}`)).body;

/** The picture's own size, as ffprobe reads it. */
async function probePicture(bytes: Buffer): Promise<{ codec_name: string; width: number; height: number }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'nw-still-test-'));
  try {
    const file = path.join(dir, 'still.jpg');
    await writeFile(file, bytes);
    const { stdout } = await run('ffprobe', ['-v', 'error', '-print_format', 'json', '-show_streams', file]);
    return (JSON.parse(stdout) as { streams: { codec_name: string; width: number; height: number }[] }).streams[0]!;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const JPEG_MAGIC = Buffer.from([0xff, 0xd8, 0xff]);

describe('a direct stream', () => {
  let stream: Stream;
  let first: StoredStill;
  let firstUrl: string;
  let firstTag: string;

  beforeAll(async () => {
    stream = await buildStream(app.orm.em.fork(), { name: 'Clean HLS cam', url: corpus.live('clean720') });
  });

  it('has no still before its first analysis: still_url is null, and the route says so', async () => {
    expect((await streamOf(stream.id)).still_url).toBeNull();
    const res = await app.anonymous<{ error: string }>('GET', `/api/streams/${stream.id}/still`);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: `No still for stream ${stream.id} yet` });
  });

  it('an analysis stores a JPEG frame 320 px wide, and the stream names it with a versioned URL', async () => {
    const analysis = await analyze(stream.id);
    expect(analysis).toMatchObject({ error: null, metrics: { still: { width: 320, height: 180 } } });
    const rows = await storedStills(stream.id);
    expect(rows).toHaveLength(1);
    first = rows[0]!;
    expect(first).toMatchObject({ content_type: 'image/jpeg', width: 320, height: 180 });
    expect(first.bytes.subarray(0, 3).equals(JPEG_MAGIC)).toBe(true);
    expect(await probePicture(first.bytes)).toMatchObject({ codec_name: 'mjpeg', width: 320, height: 180 });
    expect(first.bytes.length).toBeLessThan(64 * 1024);

    firstUrl = (await streamOf(stream.id)).still_url!;
    expect(firstUrl).toBe(`/api/streams/${stream.id}/still?v=${new Date(first.taken_at).getTime()}`);
    // Every way the stream is listed names the same still (the entity's formula, the page's SQL).
    const all = (await app.anonymous<StreamDto[]>('GET', '/api/streams')).body;
    expect(all.find((s) => s.id === stream.id)?.still_url).toBe(firstUrl);
    const page = (await app.anonymous<StreamPageDto>('GET', `/api/streams?ids=${stream.id}`)).body;
    expect(page.streams[0]?.still_url).toBe(firstUrl);
  }, 60_000);

  it('is served from our origin with its type, an ETag and a 5-minute public cache; 304 to a matching If-None-Match', async () => {
    const res = await app.anonymous<string>('GET', firstUrl);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/jpeg');
    expect(res.headers.get('cache-control')).toBe('public, max-age=300');
    firstTag = res.headers.get('etag')!;
    expect(firstTag).toMatch(/^"\d+-\d+"$/);
    const bytes = Buffer.from(await (await fetch(`${app.baseUrl}${firstUrl}`)).arrayBuffer());
    expect(bytes.equals(first.bytes)).toBe(true);

    const again = await app.anonymous<string>('GET', firstUrl, undefined, { headers: { 'if-none-match': firstTag } });
    expect(again.status).toBe(304);
    expect(again.body).toBeNull();
    expect(again.headers.get('etag')).toBe(firstTag);
    expect((await app.anonymous('GET', firstUrl, undefined, { headers: { 'if-none-match': `"other", W/${firstTag}` } })).status).toBe(304);
    expect((await app.anonymous('GET', firstUrl, undefined, { headers: { 'if-none-match': '"0-0"' } })).status).toBe(200);
  });

  it('a second analysis replaces it: a new version, a new tag, one row', async () => {
    await analyze(stream.id);
    const rows = await storedStills(stream.id);
    expect(rows).toHaveLength(1);
    expect(new Date(rows[0]!.taken_at).getTime()).toBeGreaterThan(new Date(first.taken_at).getTime());
    const url = (await streamOf(stream.id)).still_url!;
    expect(url).not.toBe(firstUrl);
    // The old tag no longer matches: the new picture comes back in full.
    const res = await fetch(`${app.baseUrl}${url}`, { headers: { 'if-none-match': firstTag } });
    expect(res.status).toBe(200);
    expect(res.headers.get('etag')).not.toBe(firstTag);
    expect(Buffer.from(await res.arrayBuffer()).equals(rows[0]!.bytes)).toBe(true);
  }, 60_000);

  it('an inactive stream\'s still is an admin\'s only, and not kept by shared caches', async () => {
    await app.request('PUT', '/api/streams', { id: stream.id, active: false });
    expect((await app.anonymous('GET', `/api/streams/${stream.id}/still`)).status).toBe(404);
    const admin = await app.request('GET', `/api/streams/${stream.id}/still`);
    expect(admin.status).toBe(200);
    expect(admin.headers.get('cache-control')).toBe('private, max-age=300');
    await app.request('PUT', '/api/streams', { id: stream.id, active: true });
  });

  it('goes with its stream', async () => {
    const url = (await streamOf(stream.id)).still_url!;
    expect((await app.request('DELETE', '/api/streams', { id: stream.id })).status).toBe(200);
    expect(await storedStills(stream.id)).toEqual([]);
    const res = await app.request<{ error: string }>('GET', url);
    expect(res.status).toBe(404);
    expect(res.body.error).toBe(`No still for stream ${stream.id} yet`);
  });

  it('an MP4 file gets one too', async () => {
    const mp4 = await buildStream(app.orm.em.fork(), { name: 'MP4 cam', url: corpus.mp4 });
    await analyze(mp4.id);
    expect(await storedStills(mp4.id)).toEqual([expect.objectContaining({ content_type: 'image/jpeg', width: 320, height: 180 })]);
  }, 60_000);

  it('an unreachable stream keeps no picture it never had, and the analysis stands', async () => {
    const missing = await buildStream(app.orm.em.fork(), { name: 'Missing cam', url: corpus.missing });
    expect(await analyze(missing.id)).toMatchObject({ score: 0, faults: ['unreachable'] });
    expect(await storedStills(missing.id)).toEqual([]);
    expect((await streamOf(missing.id)).still_url).toBeNull();
  }, 60_000);

  it('answers a bad id with a 400 and a sentence', async () => {
    for (const bad of ['abc', '0', '-1', '1.5']) {
      const res = await app.anonymous<{ error: string }>('GET', `/api/streams/${bad}/still`);
      expect(res.status, bad).toBe(400);
      expect(res.body.error, bad).toMatch(/^id: /);
    }
  });
});

describe('an embedded stream', () => {
  it('stores its platform\'s thumbnail, fetched from the platform (YouTube API, YouTube oEmbed, Twitch, Vimeo)', async () => {
    const cases: [string, string, [number, number], string][] = [
      ['https://www.youtube.com/watch?v=live0000003', 'YouTube cam', [320, 180], 'GET /vi/live0000003/mqdefault.jpg'],
      ['https://www.twitch.tv/alveussanctuary', 'Twitch cam', [320, 180], 'GET /previews-ttv/live_user_alveussanctuary-320x180.jpg'],
      ['https://vimeo.com/76979871', 'Vimeo cam', [640, 360], 'GET /video/452001751_640x360.jpg'],
    ];
    for (const [url, name, [width, height], request] of cases) {
      const stream = await buildStream(app.orm.em.fork(), { name, url });
      const analysis = await analyze(stream.id);
      expect(analysis, name).toMatchObject({ error: null, metrics: { still: { width, height } } });
      const [still] = await storedStills(stream.id);
      expect(still, name).toMatchObject({ content_type: 'image/jpeg', width, height });
      expect(still!.bytes.subarray(0, 3).equals(JPEG_MAGIC), name).toBe(true);
      expect(fixtures.requests, name).toContain(request);
      const served = await fetch(`${app.baseUrl}${(await streamOf(stream.id)).still_url!}`);
      expect(served.headers.get('content-type'), name).toBe('image/jpeg');
      expect(Buffer.from(await served.arrayBuffer()).equals(still!.bytes), name).toBe(true);
    }
  }, 60_000);

  it('YouTube without a key: the oEmbed answer\'s thumbnail', async () => {
    const noKey = await startTestApp({
      database: app.db,
      jobs: { enabled: false },
      appOptions: { fetchAllowHosts: ['127.0.0.1'] },
      settings: { quality, platforms: { ...fixtures.settings, youtube: { ...fixtures.settings.youtube, apiKey: undefined } } },
    });
    try {
      const stream = await buildStream(app.orm.em.fork(), { name: 'oEmbed cam', url: 'https://www.youtube.com/watch?v=live0000004' });
      const res = await noKey.request<AnalyzeDto>('POST', '/api/quality?action=analyze', { streamId: stream.id, wait: true });
      expect(res.body.analysis).toMatchObject({ method: 'oembed', metrics: { still: { width: 480, height: 360 } } });
      expect(await storedStills(stream.id)).toEqual([expect.objectContaining({ width: 480, height: 360 })]);
      expect(fixtures.requests).toContain('GET /vi/live0000004/hqdefault.jpg');
    } finally {
      await noKey.close();
    }
  }, 60_000);

  it('refuses a thumbnail on a private address, and one that is not a picture — the analysis stands, no still is stored', async () => {
    const cases: [string, string][] = [
      [PRIVATE_THUMBNAIL_VIDEO, 'The thumbnail address is not allowed (not a public address)'],
      [PAGE_THUMBNAIL_VIDEO, 'The thumbnail is not a picture (text/html)'],
    ];
    for (const [id, error] of cases) {
      const stream = await buildStream(app.orm.em.fork(), { name: `Refused ${id}`, url: `https://www.youtube.com/watch?v=${id}` });
      const analysis = await analyze(stream.id);
      expect(analysis, id).toMatchObject({ method: 'api', error: null, metrics: { still_error: error } });
      expect(analysis!.metrics.still, id).toBeUndefined();
      expect(await storedStills(stream.id), id).toEqual([]);
      expect((await streamOf(stream.id)).still_url, id).toBeNull();
    }
    expect(fixtures.requests.filter((r) => r.includes(PRIVATE_THUMBNAIL_VIDEO) && r.includes('.jpg'))).toEqual([]);
  }, 60_000);
});
