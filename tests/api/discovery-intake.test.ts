/**
 * What a discovery run does with a real-shaped general playlist: a served 1,000-entry mixed
 * list (nature cams, cams that need headers, news and shopping channels, rtmp/rtsp entries,
 * duplicates, broken lines). In pool mode only the nature cams are added — those that need
 * headers inactive, with the reason — and every entry left out is counted by reason on the
 * job. Analyses send the stored headers. The import's analyses never hold up an admin's one.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnalyzeDto, DiscoveryJobDto, DiscoverySourceDto, RunOneDto, StreamDto, SubmissionDto, SubmissionPageDto } from '../../src/shared/api/index.ts';
import { DiscoveryJob } from '../../src/modules/discovery/discovery.entity.ts';
import { Stream } from '../../src/modules/streams/stream.entity.ts';
import { presentJob } from '../../src/modules/discovery/discovery.presenter.ts';
import { startTestApp, type TestApp } from '../support/app.ts';

const quality = { concurrency: 2, reanalyzeHours: 6, recheckSeconds: 600, tools: { ffmpeg: 'ffmpeg', ffprobe: 'ffprobe' }, sampleSeconds: 2, sweepCron: null };

const NATURE = ['Brown Bear Cam', 'Coral Reef Live Cam', 'Kīlauea volcano webcam', 'Osprey Nest Cam', 'Niagara Falls webcam'];
const OTHER = ['CNN International', 'Freeform', 'Zoom', 'Cooking Panda', 'QVC Shopping', 'Gospel Music TV', 'Sports Arena', 'Kids Cartoons'];

/** 1,000 entries: 100 nature cams (10 of them need headers), 800 others, 50 non-HTTP, 40 duplicates, 10 broken. */
function mixedPlaylist(base: string): string {
  const lines = ['#EXTM3U x-tvg-url="https://iptv-org.github.io/epg.xml"'];
  for (let i = 0; i < 90; i++) {
    lines.push(`#EXTINF:-1 tvg-id="Nature${i}.us" tvg-logo="https://i.imgur.com/n${i}.png" group-title="Outdoor",${NATURE[i % NATURE.length]} ${i} (720p)`, `${base}/hang/nature-${i}.mp4`);
  }
  for (let i = 0; i < 10; i++) {
    lines.push(`#EXTINF:-1 group-title="Outdoor",Puffin Cam ${i}`, '#EXTVLCOPT:http-user-agent=NatureWall-Test/1.0', '#EXTVLCOPT:http-referrer=https://puffins.example.org/', `${base}/headers/puffin-${i}.mp4`);
  }
  for (let i = 0; i < 800; i++) {
    const name = OTHER[i % OTHER.length]!;
    const group = name === 'CNN International' ? 'News' : name === 'Freeform' ? 'Entertainment' : 'General';
    lines.push(`#EXTINF:-1 tvg-id="Ch${i}.us" group-title="${group}",${name} ${i}`, `https://tv.example.org/ch/${i}/index.m3u8`);
  }
  for (let i = 0; i < 50; i++) lines.push(`#EXTINF:-1,Eagle Cam RTMP ${i}`, i % 2 ? `rtmp://live.example.org/app/eagle${i}` : `rtsp://cams.example.org/eagle${i}`);
  for (let i = 0; i < 40; i++) lines.push(`#EXTINF:-1 group-title="Outdoor",${NATURE[0]} ${i} again`, `${base}/hang/nature-${i}.mp4`);
  for (let i = 0; i < 10; i++) lines.push(`#EXTINF:-1,Broken ${i}`, `http://[broken-${i}/x.m3u8`);
  return `${lines.join('\n')}\n`;
}

let app: TestApp;
let fixture: http.Server;
let base: string;
const held: http.ServerResponse[] = [];
const seenHeaders: { userAgent: string | undefined; referer: string | undefined }[] = [];

beforeAll(async () => {
  fixture = http.createServer((req, res) => {
    const path = req.url ?? '';
    if (path === '/mixed.m3u') return res.writeHead(200, { 'content-type': 'audio/x-mpegurl' }).end(mixedPlaylist(base));
    if (path.startsWith('/hang/')) return void held.push(res); // dead cameras that never answer
    if (path.startsWith('/headers/')) {
      seenHeaders.push({ userAgent: req.headers['user-agent'], referer: req.headers.referer });
      return res.writeHead(404).end();
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => fixture.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(fixture.address() as AddressInfo).port}`;
  app = await startTestApp({ jobs: true, appOptions: { fetchAllowHosts: ['127.0.0.1'] }, settings: { quality, discovery: { reconcileMs: 60_000 } } });
});
afterAll(async () => {
  for (const res of held) res.destroy();
  await app?.close();
  fixture?.closeAllConnections();
  fixture?.close();
});

async function source(name: string, config: Record<string, unknown> = {}): Promise<DiscoverySourceDto> {
  const res = await app.request<DiscoverySourceDto>('POST', '/api/discovery/sources', { name, platform: 'direct', url: `${base}/mixed.m3u`, config });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

async function runToEnd(sourceId: number): Promise<DiscoveryJobDto> {
  const res = await app.request<RunOneDto>('POST', '/api/discovery?action=run', { sourceId });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  await expect.poll(async () => (await app.orm.em.fork().findOneOrFail(DiscoveryJob, { id: res.body.jobId })).status, { timeout: 30_000, interval: 100 }).toMatch(/completed|failed/);
  return presentJob(await app.orm.em.fork().findOneOrFail(DiscoveryJob, { id: res.body.jobId }, { populate: ['source'] }));
}

describe('a 1,000-entry general playlist in pool mode', () => {
  it('adds only the nature cams, keeps the headers of those that need them, and counts the rest by reason', async () => {
    const list = await source('World IPTV (filtered)', { irrelevant: 'skip', review_large: false });
    const job = await runToEnd(list.id);
    expect(job).toMatchObject({
      status: 'completed',
      error_message: null,
      streams_discovered: 1000,
      streams_added: 100,
      streams_inactive: 10,
      streams_reviewed: 0,
      skipped: { 'not-relevant': 800, 'non-http': 50, duplicate: 40, invalid: 10 },
    });
    const added = await app.orm.em.fork().find(Stream, { discoverySourceId: list.id }, { orderBy: { id: 'asc' } });
    expect(added).toHaveLength(100);
    expect(added.filter((s) => /CNN|Freeform|Zoom|Cooking|QVC|Gospel|Sports|Kids/.test(s.name))).toEqual([]);
    const byName = (prefix: string) => added.find((s) => s.name.startsWith(prefix))!;
    expect(byName('Coral Reef Live Cam')).toMatchObject({ category: 'ocean', active: true, inactiveReason: null });
    expect(byName('Kīlauea volcano webcam')).toMatchObject({ category: 'volcano', active: true });
    expect(byName('Brown Bear Cam')).toMatchObject({ category: 'wildlife' });

    const puffin = (await app.request<StreamDto>('GET', `/api/streams/${byName('Puffin Cam').id}`)).body;
    expect(puffin).toMatchObject({
      active: false,
      inactive_reason: 'Needs a user-agent/referrer header; cannot play in a browser',
      request_headers: { user_agent: 'NatureWall-Test/1.0', referrer: 'https://puffins.example.org/' },
    });
    // Inactive streams are not on walls: anonymous callers (screens) do not even see them.
    expect((await app.anonymous('GET', `/api/streams/${puffin.id}`)).status).toBe(404);
  }, 60_000);

  it('sends the stored headers with every request of an analysis', async () => {
    const puffin = await app.orm.em.fork().findOneOrFail(Stream, { name: { $like: 'Puffin Cam%' } });
    const res = await app.request<AnalyzeDto>('POST', '/api/quality?action=analyze', { streamId: puffin.id, wait: true, force: true });
    expect(res.status).toBe(200);
    expect(seenHeaders.length).toBeGreaterThan(0);
    expect(seenHeaders.at(-1)).toEqual({ userAgent: 'NatureWall-Test/1.0', referer: 'https://puffins.example.org/' });
  });

  it('answers an admin\'s analysis while the import\'s own analyses hang', async () => {
    const imported = await app.orm.em.fork().find(Stream, { url: { $like: `${base}/hang/%` } });
    expect(imported).toHaveLength(90);
    await expect.poll(() => held.length, { timeout: 20_000 }).toBeGreaterThan(0);
    const other = await app.orm.em.fork().findOneOrFail(Stream, { name: { $like: 'Puffin Cam%' } });
    const res = await app.request('POST', '/api/quality?action=analyze', { streamId: other.id, force: true });
    expect(res.status).toBe(202);
    const analysedIds = () => new Set(app.published.flatMap((c) => (c.type === 'quality.analyzed' ? [c.streamId] : [])));
    const before = analysedIds();
    await expect.poll(() => app.published.filter((c) => c.type === 'quality.analyzed' && c.streamId === other.id).length, { timeout: 20_000 }).toBeGreaterThan(before.has(other.id) ? 1 : 0);
    expect(imported.filter((s) => analysedIds().has(s.id))).toEqual([]);
  });
});

describe('what a source chooses', () => {
  it('sends what is not relevant to review by default, and a large playlist to review unless told otherwise', async () => {
    const reviewed = await source('World IPTV (review the rest)', { review_large: false, max_entries: 400 });
    const first = await runToEnd(reviewed.id);
    expect(first).toMatchObject({ status: 'completed', streams_reviewed: 300, skipped: {} });

    const large = await source('World IPTV (large)');
    const second = await runToEnd(large.id);
    // Everything it found is filed for review (or already known); nothing new joins the pool.
    expect(second.streams_added).toBe(0);
    expect(second.streams_reviewed).toBeGreaterThan(0);
    const pending = (await app.request<SubmissionPageDto>('GET', `/api/submissions?submitted_by=${encodeURIComponent('discovery: World IPTV (large)')}&limit=200`)).body;
    expect(pending.total).toBe(second.streams_reviewed);
    const withHeaders = (await app.request<SubmissionPageDto>('GET', '/api/submissions?q=Puffin&limit=50')).body.submissions;
    expect(withHeaders.every((s: SubmissionDto) => s.url.includes('/headers/'))).toBe(true);
  }, 60_000);

  it('trusts every entry of a curated list when asked', async () => {
    const trusted = await source('Curated list', { trust_all: true, review_large: false, max_entries: 20 });
    const job = await runToEnd(trusted.id);
    // The first 20 entries are the nature cams the pool already has: known, counted as duplicates.
    expect(job).toMatchObject({ status: 'completed', streams_discovered: 20, skipped: { duplicate: 20 } });
  });
});
