/**
 * Discovery runs end to end on the real queue (pg-boss on the test database): the spec's run
 * API, what a run adds (named, categorised, located, deduplicated even with two jobs racing),
 * review delivery, Run All's refusals, failures on the job row, and the pushes an admin sees.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DiscoveryJobDto, DiscoveryProgressDto, DiscoverySourceDto, DiscoveryStatDto, RunOneDto } from '../../src/shared/api/index.ts';
import { DiscoveryJob, DiscoverySource } from '../../src/modules/discovery/discovery.entity.ts';
import { Stream } from '../../src/modules/streams/stream.entity.ts';
import { Submission } from '../../src/modules/submissions/submission.entity.ts';
import { QualityAnalysis } from '../../src/modules/quality/quality.entity.ts';
import { adminHeaders, startTestApp, type TestApp } from '../support/app.ts';
import { startPlatformFixtures, type PlatformFixtures } from '../support/platforms.ts';
import { openScreen, type TestScreen } from '../support/screens.ts';
import { discoveryModule } from '../../src/modules/discovery/discovery.module.ts';

let app: TestApp;
let fixtures: PlatformFixtures;
const screens: TestScreen[] = [];

beforeAll(async () => {
  fixtures = await startPlatformFixtures();
  app = await startTestApp({
    hub: true,
    jobs: true,
    appOptions: { fetchAllowHosts: ['127.0.0.1'] },
    settings: { platforms: fixtures.settings, discovery: { concurrency: 2, sleep: async () => {}, reconcileMs: 500 } },
  });
});
afterAll(async () => {
  screens.forEach((s) => s.close());
  await app?.close();
  await fixtures?.close();
});

async function createSource(body: Record<string, unknown>): Promise<DiscoverySourceDto> {
  const res = await app.request<DiscoverySourceDto>('POST', '/api/discovery/sources', body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

async function run(sourceId: number, options: Record<string, unknown> = {}): Promise<number> {
  const res = await app.request<RunOneDto>('POST', '/api/discovery?action=run', { sourceId, options });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.jobId;
}

async function finished(jobId: number): Promise<DiscoveryJob> {
  await expect
    .poll(async () => (await app.orm.em.fork().findOneOrFail(DiscoveryJob, { id: jobId })).status, { timeout: 20_000, interval: 100 })
    .toMatch(/completed|failed/);
  return app.orm.em.fork().findOneOrFail(DiscoveryJob, { id: jobId });
}

describe('sources', () => {
  it('validates per platform, with readable messages', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ name: 'No query', platform: 'youtube', config: {} }, 'config.query: Give a search query or a channel id'],
      [{ name: 'Bad game', platform: 'twitch', config: { game_id: 'animals' } }, 'config.game_id: A Twitch category id is digits'],
      [{ name: 'No list', platform: 'direct' }, 'url: A playlist URL is required'],
      [{ name: 'Pages', platform: 'custom', url: 'javascript:alert(1)' }, 'url: Please enter a valid URL'],
      [{ name: 'Cron', platform: 'direct', url: 'https://example.org/a.m3u', schedule: 'every hour' }, 'schedule: A schedule is a cron expression'],
      [{ name: 'Cron 2', platform: 'direct', url: 'https://example.org/a.m3u', schedule: '61 * * * *' }, 'schedule:'],
      [{ name: '', platform: 'direct' }, 'name: Name is required'],
      [{ name: 'Mars', platform: 'mars' }, 'platform: Choose a platform'],
    ];
    for (const [body, message] of cases) {
      const res = await app.request<{ error: string }>('POST', '/api/discovery/sources', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error).toContain(message);
    }
    expect(await app.orm.em.fork().count(DiscoveryJob)).toBe(0);
  });

  it('creates, edits and deletes a source; the admin list follows', async () => {
    const source = await createSource({ name: 'Temp list', platform: 'direct', url: fixtures.setPlaylist('temp', 1), config: { max_entries: 5 } });
    expect(source).toMatchObject({ platform: 'direct', deliver: 'pool', active: true, schedule: null, config: { max_entries: 5, groups: [] } });
    const edited = await app.request<DiscoverySourceDto>('PUT', `/api/discovery/sources/${source.id}`, { name: 'Temp list 2', platform: 'direct', url: source.url, schedule: '0 * * * *', deliver: 'review' });
    expect(edited.body).toMatchObject({ name: 'Temp list 2', schedule: '0 * * * *', deliver: 'review' });
    expect((await app.request('DELETE', `/api/discovery/sources/${source.id}`)).status).toBe(200);
    expect((await app.request('DELETE', `/api/discovery/sources/${source.id}`)).status).toBe(404);
  });

  it('refuses a duplicate name with 409', async () => {
    await createSource({ name: 'Unique', platform: 'custom', url: `${fixtures.base}/cams/` });
    const res = await app.request<{ error: string }>('POST', '/api/discovery/sources', { name: 'Unique', platform: 'custom', url: `${fixtures.base}/cams/` });
    expect(res.status).toBe(409);
    expect(res.body.error).toBe('A source with this name already exists');
  });
});

describe('runs', () => {
  it('runs a YouTube search: streams named from titles, categorised, located, active; a rerun only marks them seen', async () => {
    const source = await createSource({ name: 'Explore bears', platform: 'youtube', config: { query: 'bears', max_pages: 2 } });
    const job = await finished(await run(source.id));
    expect(job).toMatchObject({ status: 'completed', streamsDiscovered: 3, streamsAdded: 3, errorMessage: null, attempts: 1 });
    const streams = await app.orm.em.fork().find(Stream, { discoverySourceId: source.id }, { orderBy: { name: 'asc' } });
    expect(streams.map((s) => s.name)).toEqual(['Bear River Live Cam 1', 'Bear River Live Cam 2', 'Bear River Live Cam 3']);
    expect(streams[0]).toMatchObject({ category: 'wildlife', active: true, description: 'Discovered by Explore bears' });
    expect(streams[0]!.locationName).toBeTruthy();
    expect(streams[0]!.timezone).toBeTruthy();
    const firstSeen = streams[0]!.lastSeenAt!;
    // Each find is queued for automatic quality analysis as soon as it is in the pool.
    await expect
      .poll(() => app.orm.em.fork().count(QualityAnalysis, { stream: { $in: streams.map((s) => s.id) }, trigger: 'discovery' }), { timeout: 20_000 })
      .toBe(3);

    const again = await finished(await run(source.id));
    expect(again).toMatchObject({ status: 'completed', streamsDiscovered: 3, streamsAdded: 0 });
    expect(await app.orm.em.fork().count(Stream, { discoverySourceId: source.id })).toBe(3);
    const seen = await app.orm.em.fork().findOneOrFail(Stream, { id: streams[0]!.id });
    expect(seen.lastSeenAt!.getTime()).toBeGreaterThan(firstSeen.getTime());

    const stats = (await app.request<DiscoveryStatDto[]>('GET', '/api/discovery/stats')).body.find((s) => s.source_id === source.id);
    expect(stats).toMatchObject({ total_added: 3, total_discovered: 6 });
    expect(stats!.last_run).toBeTruthy();
  });

  it('fails the job with the platform\'s error, readable, and adds nothing', async () => {
    const source = await createSource({ name: 'Spent quota', platform: 'youtube', config: { query: 'quota' } });
    const job = await finished(await run(source.id));
    expect(job.status).toBe('failed');
    expect(job.errorMessage).toMatch(/YouTube API quota exceeded for today/);
    expect(job.attempts).toBe(1); // not retried: a spent quota stays spent
    const jobs = (await app.request<DiscoveryJobDto[]>('GET', '/api/discovery/jobs')).body;
    expect(jobs.find((j) => j.id === job.id)).toMatchObject({ status: 'failed', source_name: 'Spent quota', finished_at: expect.any(String) });
  });

  it('never adds a stream twice, even when two jobs find it at the same moment', async () => {
    const url = fixtures.setPlaylist('shared', 60, { prefix: 'Shared Cam' });
    const a = await createSource({ name: 'Race A', platform: 'direct', url });
    const b = await createSource({ name: 'Race B', platform: 'direct', url });
    const [jobA, jobB] = await Promise.all([run(a.id), run(b.id)]);
    const [doneA, doneB] = await Promise.all([finished(jobA), finished(jobB)]);
    expect([doneA.status, doneB.status]).toEqual(['completed', 'completed']);
    expect(doneA.streamsDiscovered).toBe(60);
    expect(doneB.streamsDiscovered).toBe(60);
    expect(doneA.streamsAdded + doneB.streamsAdded).toBe(60);
    const rows = await app.orm.em.fork().getConnection().execute<{ n: number; distinct: number }[]>(
      `select count(*)::int as n, count(distinct normalized_url)::int as distinct from streams where url like 'https://streams.example.org/shared-cam/%'`,
    );
    expect(rows[0]).toEqual({ n: 60, distinct: 60 });
  });

  it('refuses a second run of a source that is still running (409), whoever asks', async () => {
    const slow = fixtures.holdSlow();
    const source = await createSource({ name: 'Slow list', platform: 'direct', url: `${fixtures.base}/slow/cams.m3u` });
    const jobId = await run(source.id);
    const second = await app.request<{ error: string }>('POST', '/api/discovery?action=run', { sourceId: source.id });
    expect(second.status).toBe(409);
    expect(second.body.error).toBe('This source is already running');
    const all = await app.request<{ error: string }>('POST', '/api/discovery?action=run', { runAll: true });
    expect(all.status).toBe(409);
    expect(all.body.error).toMatch(/already in progress/);
    await expect.poll(() => fixtures.requests.filter((r) => r === 'GET /slow/cams.m3u').length, { timeout: 10_000 }).toBeGreaterThan(0);
    slow.release();
    expect((await finished(jobId)).streamsAdded).toBe(2);
  });

  it("a schedule's tick (what pg-boss's cron calls) makes one run of its source, and is skipped while that run waits or once the source is inactive", async () => {
    const jobs = app.app.use(discoveryModule)!;
    const body = { name: 'Ticking list', platform: 'direct', url: fixtures.setPlaylist('ticking', 1) };
    const source = await createSource(body);
    // Two nodes' ticks at the same instant: the one-active-run-per-source index lets one through.
    const ticks = await Promise.all([jobs.tick(source.id), jobs.tick(source.id)]);
    const ran = ticks.filter((t): t is number => t !== null);
    expect(ran).toHaveLength(1);
    expect(await app.orm.em.fork().findOneOrFail(DiscoveryJob, { id: ran[0]! })).toMatchObject({ trigger: 'schedule', status: 'queued' });
    expect(await jobs.tick(source.id)).toBeNull();
    // Handed to the queue (the cron's worker runs it in place), it completes and frees the source.
    await jobs.enqueue(ran);
    expect(await finished(ran[0]!)).toMatchObject({ status: 'completed', streamsAdded: 1 });
    const off = await app.request('PUT', `/api/discovery/sources/${source.id}`, { ...body, active: false });
    expect(off.status, JSON.stringify(off.body)).toBe(200);
    expect(await jobs.tick(source.id)).toBeNull();
    expect(await app.orm.em.fork().count(DiscoveryJob, { source: source.id })).toBe(1);
  });

  it('sends finds to the review queue when the source says so, and skips what the pool has', async () => {
    const url = fixtures.setPlaylist('review', 3, { prefix: 'Review Cam' });
    const known = await createSource({ name: 'Known first', platform: 'direct', url, config: { max_entries: 1 } });
    await finished(await run(known.id));
    const source = await createSource({ name: 'Reviewed list', platform: 'direct', url, deliver: 'review' });
    const job = await finished(await run(source.id));
    expect(job).toMatchObject({ status: 'completed', streamsDiscovered: 3, streamsAdded: 2 });
    const pending = await app.orm.em.fork().find(Submission, { submittedBy: 'discovery: Reviewed list' }, { orderBy: { id: 'asc' } });
    expect(pending.map((s) => [s.title, s.status]).sort()).toEqual([['Review Cam 2 (1080p)', 'pending'], ['Review Cam 3 (1080p)', 'pending']]);
    // A pool source that finds them later adds nothing while they wait for review.
    const pool = await createSource({ name: 'Pool after review', platform: 'direct', url });
    expect(await finished(await run(pool.id))).toMatchObject({ streamsDiscovered: 3, streamsAdded: 0 });
  });

  it('honours the run\'s limit option', async () => {
    const source = await createSource({ name: 'Limited', platform: 'direct', url: fixtures.setPlaylist('limited', 20, { prefix: 'Limited Cam' }) });
    expect(await finished(await run(source.id, { limit: 5 }))).toMatchObject({ streamsDiscovered: 5, streamsAdded: 5 });
  });

  it('answers bad run requests with 4xx and a sentence', async () => {
    const cases: [string, unknown, number, string][] = [
      ['/api/discovery?action=run', { sourceId: 'x' }, 400, ''],
      ['/api/discovery?action=dance', { runAll: true }, 400, 'action'],
      ['/api/discovery', { runAll: true }, 400, 'action'],
      ['/api/discovery?action=run', {}, 400, 'Give a sourceId, or runAll: true'],
      ['/api/discovery?action=run', { sourceId: 999999 }, 404, 'Discovery source not found: 999999'],
    ];
    for (const [path, body, status, message] of cases) {
      const res = await app.request<{ error: string }>('POST', path, body);
      expect(res.status, path + JSON.stringify(body)).toBe(status);
      expect(res.body.error).toContain(message);
    }
    expect((await app.anonymous('POST', '/api/discovery?action=run', { runAll: true })).status).toBe(401);
  });
});

describe('rows of vanished runs', () => {
  it('are failed with a reason by the reconciler, never left running', async () => {
    const source = await createSource({ name: 'Orphans', platform: 'direct', url: fixtures.setPlaylist('orphans', 1) });
    const em = app.orm.em.fork();
    const lost = em.create(DiscoveryJob, { source: em.getReference(DiscoverySource, source.id), status: 'running', attempts: 1, queueJobId: '00000000-0000-4000-8000-000000000000' });
    await em.flush();
    const neverQueued = em.create(DiscoveryJob, { source: null, status: 'queued', createdAt: new Date(Date.now() - 10 * 60_000) });
    await em.flush();
    await app.app.use(discoveryModule)!.reconcile(); // it also runs every 500 ms here; either may get there first
    const fresh = app.orm.em.fork();
    expect(await fresh.findOneOrFail(DiscoveryJob, { id: lost.id })).toMatchObject({ status: 'failed', errorMessage: 'The run ended without reporting (its worker stopped)' });
    expect(await fresh.findOneOrFail(DiscoveryJob, { id: neverQueued.id })).toMatchObject({ status: 'failed', errorMessage: 'The job was never queued (the server stopped while starting it)' });
  });
});

describe('live progress', () => {
  it('pushes start, progress and finish of a run to admins, with the source\'s totals', async () => {
    const admin = openScreen(app.baseUrl, { kind: 'admin' }, adminHeaders);
    screens.push(admin);
    await admin.waitFor((s) => s !== null);
    const seen: DiscoveryProgressDto[] = [];
    admin.client.socket.on('discovery:progress', (p) => seen.push(p));
    const sources: number[] = [];
    admin.client.socket.on('discovery:sources', (p) => sources.push(p.sources.length));

    const source = await createSource({ name: 'Watched list', platform: 'direct', url: fixtures.setPlaylist('watched', 60, { prefix: 'Watched Cam' }) });
    await expect.poll(() => sources.length).toBeGreaterThan(0);
    const jobId = await run(source.id);
    await expect.poll(() => seen.some((p) => p.job.id === jobId && p.job.status === 'completed'), { timeout: 20_000 }).toBe(true);
    const mine = seen.filter((p) => p.job.id === jobId);
    expect(mine[0]!.job.status).toBe('queued');
    expect(mine.some((p) => p.job.status === 'running' && p.job.streams_discovered > 0 && p.job.streams_discovered < 60)).toBe(true);
    const last = mine.at(-1)!;
    expect(last.job).toMatchObject({ status: 'completed', streams_discovered: 60, streams_added: 60, source_name: 'Watched list' });
    expect(last.stats).toMatchObject({ source_id: source.id, total_added: 60, total_discovered: 60 });
    const versions = mine.map((p) => p.version);
    expect([...versions].sort((x, y) => x - y)).toEqual(versions);
  });
});
