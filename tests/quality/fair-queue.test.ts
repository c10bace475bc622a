/**
 * The fair analysis queue. First with nobody working it (a node with JOBS_ENABLED=false), so
 * the order is read straight off the queue: an admin's request comes before a 2,000-stream
 * import, a screen's failure report before the sweep, a more urgent request takes the place of
 * a waiting one, and removing the streams cancels what waits for them. Then with workers: a
 * manual analysis behind a live import is done before the import has moved more than a step.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { QualityQueueDto } from '../../src/shared/api/quality.ts';
import type { DomainChange } from '../../src/domain/changes.ts';
import type { EntityManager } from '../../src/db.ts';
import { Stream } from '../../src/modules/streams/stream.entity.ts';
import { QUALITY_QUEUE, type QueueData } from '../../src/modules/quality/quality.jobs.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { buildStream } from '../support/factories.ts';
import { qualityModule } from '../../src/modules/quality/quality.module.ts';

const quality = { concurrency: 2, reanalyzeHours: 6, recheckSeconds: 600, tools: { ffmpeg: 'ffmpeg', ffprobe: 'ffprobe' }, sampleSeconds: 2, sweepCron: null };

/** Inserts `count` streams at `<prefix><n><suffix>` in one statement; returns their ids. */
async function insertStreams(em: EntityManager, count: number, prefix: string, suffix: string): Promise<number[]> {
  const rows = await em.execute<{ id: number }[]>(
    `insert into streams (name, url, normalized_url, category, quality, active, created_at, updated_at)
      select 'Imported ' || i, u, u, 'nature', 'hd', true, now(), now()
      from (select i, ? || i || ? as u from generate_series(1, ?) as i) s returning id`,
    [prefix, suffix, count],
    'all',
  );
  return rows.map((r) => r.id);
}

async function deleteAll(app: TestApp, ids: readonly number[]): Promise<void> {
  for (let i = 0; i < ids.length; i += 20) {
    const results = await Promise.all(ids.slice(i, i + 20).map((id) => app.request('DELETE', '/api/streams', { id })));
    for (const res of results) expect(res.status).toBe(200);
  }
}

describe('the order of the queue (nobody works it)', () => {
  let app: TestApp;
  let imported: number[];
  beforeAll(async () => {
    app = await startTestApp({ jobs: { enabled: false }, settings: { quality } });
    imported = await insertStreams(app.orm.em.fork(), 2000, 'https://import.example.org/cam/', '.m3u8');
  }, 60_000);
  afterAll(async () => app?.close());

  const next = async () => {
    const [job] = await app.queue!.fetch<QueueData>(QUALITY_QUEUE);
    return job?.data;
  };

  it('takes an admin\'s request before a 2,000-stream import, and a screen\'s failure report before the sweep', async () => {
    const jobs = app.app.use(qualityModule)!;
    expect(await jobs.enqueueImport(imported, 'discovery:1')).toBe(2000);
    const em = app.orm.em.fork();
    const swept = await buildStream(em, { name: 'Swept', url: 'https://b.example.org/swept.m3u8' });
    const failing = await buildStream(em, { name: 'Failing on a wall', url: 'https://b.example.org/failing.m3u8' });
    const wanted = await buildStream(em, { name: 'Wanted now', url: 'https://b.example.org/wanted.m3u8' });
    expect(await jobs.enqueue({ streamId: swept.id, trigger: 'schedule' })).toBe(true);
    expect(await jobs.enqueue({ streamId: failing.id, trigger: 'screens' })).toBe(true);
    expect(await jobs.enqueue({ streamId: wanted.id, trigger: 'manual' })).toBe(true);

    const status = await jobs.status();
    expect(status).toMatchObject({ waiting: { manual: 1, screens: 1, 'on-screen': 0, new: 2000, sweep: 1 }, running: 0 });
    const queueDto = await app.request<QualityQueueDto>('GET', '/api/quality/queue');
    expect(queueDto.body.waiting).toEqual(status.waiting);

    expect(await next()).toMatchObject({ streamId: wanted.id, trigger: 'manual' });
    expect(await next()).toMatchObject({ streamId: failing.id, trigger: 'screens' });
    // The import before the sweep.
    expect(imported).toContain((await next())!.streamId);
  });

  it('lets a more urgent request take the place of one waiting for the same stream, and keeps a less urgent one out', async () => {
    const jobs = app.app.use(qualityModule)!;
    const em = app.orm.em.fork();
    const stream = await buildStream(em, { name: 'Waits in the sweep', url: 'https://b.example.org/bumped.m3u8' });
    expect(await jobs.enqueue({ streamId: stream.id, trigger: 'schedule' })).toBe(true);
    expect(await jobs.enqueue({ streamId: stream.id, trigger: 'schedule' })).toBe(false);
    expect(await jobs.enqueue({ streamId: stream.id, trigger: 'manual' })).toBe(true);
    expect(await jobs.enqueue({ streamId: stream.id, trigger: 'screens' })).toBe(false);
    expect(await next()).toMatchObject({ streamId: stream.id, trigger: 'manual' });
  });

  it('cancels what waits for streams that are removed', async () => {
    const before = await app.app.use(qualityModule)!.status();
    expect(before.waiting.new).toBeGreaterThan(1990);
    await deleteAll(app, imported);
    await expect.poll(async () => (await app.app.use(qualityModule)!.status()).waiting.new, { timeout: 20_000 }).toBe(0);
    const left = await app.queue!.findJobs<QueueData>(QUALITY_QUEUE, { queued: true });
    expect(left.filter((j) => imported.includes(j.data.streamId))).toEqual([]);
    // The import job taken above is still running: it is cancelled too, so no retry (its failure,
    // or a monitor pass finding its worker silent) brings it back for a stream that is gone.
    const { rows } = await app.queue!.getDb().executeSql(
      `select state::text as state, count(*)::int as n from pgboss.job where name = $1 and singleton_key = any($2::text[]) group by state`,
      [QUALITY_QUEUE, imported.map(String)],
    );
    expect(rows).toEqual([{ state: 'cancelled', n: 2000 }]);
  }, 60_000);
});

describe('offline re-checks', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ jobs: { enabled: false }, settings: { quality } });
  });
  afterAll(async () => app?.close());

  it('re-checks an offline stream no screen shows with backoff, not every period', async () => {
    const em = app.orm.em.fork();
    const stream = await buildStream(em, { name: 'Gone dark', url: 'https://b.example.org/dark.m3u8' });
    const checkedAt = new Date('2026-11-23T10:00:00Z');
    await em.nativeUpdate(Stream, { id: stream.id }, { health: 'offline', failedChecks: 4, qualityAssessedAt: checkedAt });
    const jobs = app.app.use(qualityModule)!;
    // Four failures in a row: the next check is 15 minutes after the last one.
    expect(await jobs.recheckOffline(new Date(checkedAt.getTime() + 60_000))).toBe(0);
    expect(await jobs.recheckOffline(new Date(checkedAt.getTime() + 14 * 60_000))).toBe(0);
    expect(await jobs.recheckOffline(new Date(checkedAt.getTime() + 15 * 60_000))).toBe(1);
    const [job] = await app.queue!.fetch<QueueData>(QUALITY_QUEUE);
    expect(job?.data).toMatchObject({ streamId: stream.id, trigger: 'recheck' });
  });
});

describe('with workers: an import that hangs takes one slot, and an admin\'s request never waits', () => {
  let app: TestApp;
  let fixture: http.Server;
  let base: string;
  /** Requests the fixture holds open (a dead camera that never answers), by path prefix. */
  const held: { path: string; res: http.ServerResponse }[] = [];
  const heldUnder = (prefix: string) => held.filter((h) => h.path.startsWith(prefix)).length;
  beforeAll(async () => {
    fixture = http.createServer((req, res) => {
      if (req.url?.startsWith('/fast/')) return res.writeHead(404).end('gone');
      held.push({ path: req.url ?? '', res });
    });
    await new Promise<void>((resolve) => fixture.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(fixture.address() as AddressInfo).port}`;
    app = await startTestApp({ jobs: true, appOptions: { fetchAllowHosts: ['127.0.0.1'] }, settings: { quality } });
  });
  afterAll(async () => {
    for (const h of held) h.res.destroy();
    await app?.close();
    fixture?.closeAllConnections();
    fixture?.close();
  });

  const analysed = (streamId: number) => app.published.some((c) => c.type === 'quality.analyzed' && c.streamId === streamId);

  it('works the rest beside the import, and an admin\'s request even when every general slot hangs', async () => {
    const em = app.orm.em.fork();
    await em.nativeUpdate(Stream, {}, { active: false });
    // Files (.mp4) are read with a 20 s limit: long enough for the steps below, whatever the machine.
    const imported = await insertStreams(em, 2000, `${base}/import/`, '.mp4');
    const importIds = new Set(imported);
    const importAnalysed = () => app.published.filter((c: DomainChange) => c.type === 'quality.analyzed' && importIds.has(c.streamId)).length;
    await app.app.use(qualityModule)!.enqueueImport(imported, 'discovery:2');
    await expect.poll(() => heldUnder('/import/'), { timeout: 20_000 }).toBe(1);

    // The import holds one of the two general slots; the sweep gets the other.
    const swept = await buildStream(em, { name: 'Swept', url: `${base}/fast/swept.mp4` });
    await app.app.use(qualityModule)!.enqueue({ streamId: swept.id, trigger: 'schedule' });
    await expect.poll(() => analysed(swept.id), { timeout: 20_000 }).toBe(true);
    expect(heldUnder('/import/')).toBe(1);
    expect(importAnalysed()).toBe(0);

    // Now a sweep-lane stream that hangs too: both general slots are stuck.
    const stuck = await buildStream(em, { name: 'Stuck', url: `${base}/hang/stuck.mp4` });
    await app.app.use(qualityModule)!.enqueue({ streamId: stuck.id, trigger: 'schedule' });
    await expect.poll(() => heldUnder('/hang/'), { timeout: 20_000 }).toBe(1);

    // An admin's request is analysed anyway, while everything before it still hangs.
    const manual = await buildStream(em, { name: 'Manual', url: `${base}/fast/manual.mp4` });
    const res = await app.request('POST', '/api/quality?action=analyze', { streamId: manual.id, force: true });
    expect(res.status).toBe(202);
    await expect.poll(() => analysed(manual.id), { timeout: 20_000 }).toBe(true);
    expect(importAnalysed()).toBe(0);
    expect(analysed(stuck.id)).toBe(false);
    expect(heldUnder('/import/')).toBe(1);

    for (const h of held.splice(0)) h.res.writeHead(404).end('gone');
    await deleteAll(app, imported);
    await expect.poll(async () => (await app.app.use(qualityModule)!.status()).waiting.new, { timeout: 20_000 }).toBe(0);
  }, 120_000);
});
