/**
 * Uptime from what is recorded (src/shared/uptime.ts): a real wall connecting, leaving and coming
 * back over Socket.IO; connections and health changes written with known times for the 7-day
 * figures (and a node that died with its walls connected); streams' health changes written by
 * real analyses of a fixture camera; bad ids and anonymous callers.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AnalyzeDto, ScreenListItem, UptimeDto } from '../../src/shared/api/index.ts';
import { Stream } from '../../src/modules/streams/stream.entity.ts';
import { HOUR_MS } from '../../src/shared/uptime.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { buildStream } from '../support/factories.ts';
import { serveCorpus, type CorpusServer } from '../support/quality-corpus.ts';
import { screenPool } from '../support/screens.ts';

let app: TestApp;
let corpus: CorpusServer;
const pool = screenPool();

const quality = { concurrency: 2, reanalyzeHours: 6, recheckSeconds: 30, tools: { ffmpeg: 'ffmpeg', ffprobe: 'ffprobe' }, sampleSeconds: 2, sweepCron: null };

beforeAll(async () => {
  corpus = await serveCorpus();
  app = await startTestApp({ hub: true, jobs: true, appOptions: { fetchAllowHosts: ['127.0.0.1'] }, settings: { quality } });
  await app.orm.em.fork().nativeUpdate(Stream, {}, { active: false });
}, 120_000);
afterEach(() => pool.closeAll());
afterAll(async () => {
  await app?.close();
  await corpus?.close();
});

const uptimeOf = async (path: string) => {
  const res = await app.request<UptimeDto>('GET', path);
  return res.status === 200 ? res.body : null;
};
const nulls = (n: number) => Array.from({ length: n }, () => null);
/** Each bucket as expected (shares to 3 decimals: the server's "now" is a few ms after the test's). */
function expectHours(actual: (number | null)[], expected: (number | null)[]): void {
  expect(actual).toHaveLength(expected.length);
  expected.forEach((value, i) => {
    if (value === null) expect(actual[i], `hour ${i}`).toBeNull();
    else expect(actual[i], `hour ${i}`).toBeCloseTo(value, 3);
  });
}

describe('a screen\'s uptime, from its connections', () => {
  it('is 100 % while a new wall is connected, unknown before it ever was, and drops while it is away', async () => {
    const device = 'device-uptime-0001';
    const wall = pool.open(app.baseUrl, { kind: 'wall', name: 'Uptime wall', device });
    await wall.waitFor((s) => s !== null);
    const listed = async () => (await app.request<ScreenListItem[]>('GET', '/api/screens?include_offline=true')).body.find((s) => s.device === device);
    const first = (await listed())!;
    expect(first.online).toBe(true);

    // Online since it first connected: all of the known time; nothing known before.
    const path = `/api/screens/${first.id}/uptime`;
    await expect.poll(async () => (await uptimeOf(path))?.day.share).toBe(1);
    const connected = (await uptimeOf(path))!;
    expect(connected.day.hours.slice(0, 23)).toEqual(nulls(23));
    expect(connected.day.hours[23]).toBe(1);
    expect(connected.week.share).toBe(1);
    expect(connected.week.hours.slice(0, 167)).toEqual(nulls(167));
    expect(Date.parse(connected.day.to) - Date.parse(connected.day.from)).toBe(24 * HOUR_MS);
    expect(Date.parse(connected.week.to) - Date.parse(connected.week.from)).toBe(168 * HOUR_MS);
    await expect.poll(async () => (await listed())?.uptime_24h).toBe(1);

    // It leaves: from then on it is down (its last connection id still names it).
    wall.close();
    await expect.poll(async () => (await listed())?.online).toBe(false);
    await expect.poll(async () => (await uptimeOf(path))?.day.share ?? 1).toBeLessThan(1);
    const away = (await uptimeOf(path))!;
    expect(away.day.share).toBeGreaterThan(0);
    expect(away.day.hours.slice(0, 23)).toEqual(nulls(23));
    await expect.poll(async () => (await listed())?.uptime_24h ?? 1).toBeLessThan(1);

    // It comes back with a new connection: the same screen (its device), so the same history.
    const again = pool.open(app.baseUrl, { kind: 'wall', name: 'Uptime wall', device });
    await again.waitFor((s) => s !== null);
    await expect.poll(async () => (await listed())?.online).toBe(true);
    const second = (await listed())!;
    expect(second.id).not.toBe(first.id);
    const back = await uptimeOf(`/api/screens/${second.id}/uptime`);
    expect(back!.day.share).toBeGreaterThan(0);
    expect(back!.day.share).toBeLessThan(1);
    expect(back!.day.hours.slice(0, 23)).toEqual(nulls(23));
  });

  it('tells the last 7 days and the last 24 hours from connections recorded at known times', async () => {
    const now = Date.now();
    const at = (hoursAgo: number) => new Date(now - hoursAgo * HOUR_MS).toISOString();
    const em = app.orm.em.fork();
    const rows: [string, string, number, number | null, number][] = [
      // key, connection id, started (hours ago), ended (hours ago; null: open), last marked (hours ago)
      ['lobby:wall:@default:', 'lobbyconnection0001', 72.5, 48.5, 48.5],
      ['lobby:wall:@default:', 'lobbyconnection0002', 24.5, 12, 12],
      ['lobby:wall:@default:', 'lobbyconnection0003', 11.5, null, 0],
      // A wall whose node died an hour ago with it connected: its connection ended when last marked.
      ['crashed:wall:@default:', 'crashedconnection01', 2.5, null, 1],
    ];
    for (const [key, socket, started, ended, seen] of rows) {
      await em.execute(
        `insert into screen_sessions (screen_key, socket_id, node, started_at, ended_at, last_seen_at) values (?, ?, 'gone-node', ?, ?, ?)`,
        [key, socket, at(started), ended === null ? null : at(ended), at(seen)],
      );
    }

    const lobby = (await uptimeOf('/api/screens/lobbyconnection0001/uptime'))!;
    // Known for the last 72.5 h, online 24 + 12.5 + 11.5 of them.
    expect(lobby.week.share).toBeCloseTo(48 / 72.5, 3);
    expectHours(lobby.week.hours, [
      ...nulls(95), // before it was first seen
      1, // [-73 h, -72 h): unknown, then online from -72.5 h
      ...Array(23).fill(1),
      0.5, // [-49 h, -48 h): it left at -48.5 h
      ...Array(23).fill(0),
      0.5, // [-25 h, -24 h): back at -24.5 h
      ...Array(11).fill(1),
      1, // [-13 h, -12 h): gone at -12 h exactly, on the edge
      0.5, // [-12 h, -11 h): back at -11.5 h
      ...Array(11).fill(1),
    ]);
    expect(lobby.day.share).toBeCloseTo(23.5 / 24, 3);
    expectHours(lobby.day.hours, [...Array(12).fill(1), 0.5, ...Array(11).fill(1)]);
    // Any of its connection ids names the screen.
    expect((await uptimeOf('/api/screens/lobbyconnection0003/uptime'))!.week.share).toBeCloseTo(48 / 72.5, 3);

    const crashed = (await uptimeOf('/api/screens/crashedconnection01/uptime'))!;
    expect(crashed.day.share).toBeCloseTo(1.5 / 2.5, 3);
    expectHours(crashed.day.hours, [...nulls(21), 1, 1, 0]);
  });
});

describe('a stream\'s uptime, from its health changes', () => {
  it('follows real analyses: unknown until the first check, live from a good one, down from an offline verdict', async () => {
    const em = app.orm.em.fork();
    const clean = await buildStream(em, { name: 'Uptime clean cam', url: corpus.live('clean720') });
    const missing = await buildStream(em, { name: 'Uptime missing cam', url: corpus.missing });

    const before = (await uptimeOf(`/api/streams/${clean.id}/uptime`))!;
    expect(before.day).toMatchObject({ share: null, hours: nulls(24) });
    expect(before.week).toMatchObject({ share: null, hours: nulls(168) });

    const analysed = await app.request<AnalyzeDto>('POST', '/api/quality?action=analyze', { streamId: clean.id, wait: true });
    expect(analysed.status, JSON.stringify(analysed.body)).toBe(200);
    const live = (await uptimeOf(`/api/streams/${clean.id}/uptime`))!;
    expect(live.day.share).toBe(1);
    expect(live.day.hours).toEqual([...nulls(23), 1]);
    expect(live.week.hours).toEqual([...nulls(167), 1]);

    // Unreachable twice: offline (the first failure alone changes nothing, so nothing is known yet).
    await app.request('POST', '/api/quality?action=analyze', { streamId: missing.id, wait: true, force: true });
    expect((await uptimeOf(`/api/streams/${missing.id}/uptime`))!.day.share).toBeNull();
    await app.request('POST', '/api/quality?action=analyze', { streamId: missing.id, wait: true, force: true });
    const offline = (await uptimeOf(`/api/streams/${missing.id}/uptime`))!;
    expect(offline.day.share).toBe(0);
    expect(offline.day.hours).toEqual([...nulls(23), 0]);
  }, 60_000);

  it('tells the last 7 days from changes recorded at known times (degraded is not live)', async () => {
    const em = app.orm.em.fork();
    const stream = await buildStream(em, { name: 'Uptime history cam', url: 'https://example.org/uptime-history.m3u8' });
    const now = Date.now();
    // Live since before the week; offline at -100.5 h; degraded at -30.5 h; live again at -6.5 h.
    for (const [hoursAgo, health] of [[200, 'live'], [100.5, 'offline'], [30.5, 'degraded'], [6.5, 'live']] as const) {
      await em.execute(`insert into stream_health_changes (stream_id, at, health) values (?, ?, ?)`, [stream.id, new Date(now - hoursAgo * HOUR_MS).toISOString(), health]);
    }
    const uptime = (await uptimeOf(`/api/streams/${stream.id}/uptime`))!;
    expect(uptime.week.share).toBeCloseTo((67.5 + 6.5) / 168, 3);
    expectHours(uptime.week.hours, [...Array(67).fill(1), 0.5, ...Array(93).fill(0), 0.5, ...Array(6).fill(1)]);
    expect(uptime.day.share).toBeCloseTo(6.5 / 24, 3);
    expectHours(uptime.day.hours, [...Array(17).fill(0), 0.5, ...Array(6).fill(1)]);
  });
});

describe('uptime: bad ids and callers', () => {
  it('answers a malformed id with 400, an unknown one with 404, an anonymous caller with 401', async () => {
    for (const [path, status, message] of [
      ['/api/screens/not%20an%20id!/uptime', 400, 'connection id'],
      [`/api/screens/${'x'.repeat(65)}/uptime`, 400, 'connection id'],
      ['/api/screens/neverconnected/uptime', 404, 'neverconnected'],
      ['/api/streams/abc/uptime', 400, 'id:'],
      ['/api/streams/0/uptime', 400, 'id'],
      ['/api/streams/999999/uptime', 404, 'Stream not found: 999999'],
    ] as const) {
      const res = await app.request<{ error: string }>('GET', path);
      expect(res.status, path).toBe(status);
      expect(res.body.error, path).toContain(message);
    }
    for (const path of ['/api/screens/neverconnected/uptime', '/api/streams/1/uptime']) {
      const res = await app.anonymous<{ error: string }>('GET', path);
      expect(res.status, path).toBe(401);
      expect(res.body).toEqual({ error: 'Authentication required' });
    }
  });
});
