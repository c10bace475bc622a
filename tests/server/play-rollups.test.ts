/**
 * Proof of play kept as totals (issue 42, item 4), on real databases. The upgrade folds the raw
 * records an earlier release kept into quarter hours and days whose totals per day, screen and
 * stream equal what the raw records gave (the earlier release's own query, below), to the
 * millisecond — in UTC and in a +05:45 zone. Reports add up, per day in the zone, to exactly what
 * their records said, however often and to however many nodes they are sent; a zone change sums
 * the days again (once, however many nodes start); retention drops whole day partitions and
 * forgets what nothing needs.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { initORM, migrate } from '../../src/orm.ts';
import type { Orm } from '../../src/db.ts';
import { dayZone, keepDaysIn, partitionDays, QUARTER_MS } from '../../src/modules/plays/play-rollups.ts';
import { writeAssignments } from '../../src/modules/plays/play-assignments.ts';
import { dayIn, forgetPlays, playTotals, recordPlays } from '../../src/modules/plays/plays.service.ts';
import type { PlayRecord } from '../../src/shared/plays.ts';
import { createEmptyDatabase, createTestDatabase, type TestDatabase } from '../support/db.ts';
import { buildStream } from '../support/factories.ts';
import { seeded } from '../support/seeded.ts';

const ZONE = 'Asia/Kathmandu'; // +05:45: its days start at 18:15 UTC
const MINUTE = 60_000;
const DAY = 86_400_000;

/** The earlier release's totals per day, screen and stream, from its raw records (its dailyRows, as it was). */
const RAW_DAILY = `
  with p as (select * from play_records where started_at >= ($1::date)::timestamp at time zone $3 and started_at < ($2::date + 1)::timestamp at time zone $3)
  select to_char(p.started_at at time zone $3, 'YYYY-MM-DD') as day, p.device, coalesce(p.stream_id::text, 'deleted:' || p.stream_name) as stream,
    sum(extract(epoch from p.ended_at - p.started_at) * 1000)::bigint as ms, sum(p.playing_ms)::bigint as playing
  from p group by 1, 2, 3 order by 1, 2, 3`;

/** The same from the totals: a stream deleted before the upgrade is known by its name. */
const DAYS = `
  select to_char(d.day, 'YYYY-MM-DD') as day, s.device, case when d.stream > 0 then d.stream::text else 'deleted:' || d.stream_name end as stream, d.ms, d.playing
  from play_days d join play_screens s on s.id = d.screen where d.day between $1::date and $2::date order by 1, 2, 3`;

async function rows(url: string, sql: string, params: unknown[]): Promise<{ day: string; device: string; stream: string; ms: string; playing: string }[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql, params)).rows;
  } finally {
    await client.end();
  }
}

describe('the upgrade from raw records', () => {
  let url: string;
  let orm: Orm;
  afterAll(async () => orm?.close());

  it('keeps every total per day, screen and stream to the millisecond, in UTC and in a +05:45 zone', async () => {
    url = await createEmptyDatabase('nw_rollups');
    orm = await initORM({ url, poolMax: 3 });
    await orm.migrator.up({ to: 'Migration20261127200000_backups' });
    const streams = [await buildStream(orm.em.fork(), { name: 'Raw A' }), await buildStream(orm.em.fork(), { name: 'Raw B' }), await buildStream(orm.em.fork(), { name: 'Raw C' })];
    // Three screens over four days: whole-minute records (as screens cut them), a few odd ones, and a deleted stream's.
    const { next } = seeded(42);
    const base = Date.parse('2026-11-20T00:00:00Z');
    const raw: unknown[][] = [];
    for (const device of ['raw-wall-0001', 'raw-wall-0002', 'raw-kiosk-001#kiosk-3']) {
      for (let minute = 0; minute < 4 * 1440; minute += 1 + Math.floor(next() * 7)) {
        const from = base + minute * MINUTE + (next() < 0.1 ? Math.floor(next() * 40_000) : 0);
        const to = base + (minute + 1) * MINUTE - (next() < 0.1 ? Math.floor(next() * 10_000) : 0);
        const pick = Math.floor(next() * 4);
        const [id, name] = pick === 3 ? [null, next() < 0.5 ? 'Gone cam' : 'Other gone cam'] : [streams[pick]!.id, streams[pick]!.name];
        raw.push([device, `Screen ${device}`, device.includes('kiosk') ? 'kiosk' : 'wall', id, name, 1 + Math.floor(next() * 5), new Date(from).toISOString(), new Date(to).toISOString(), Math.floor(next() * (to - from))]);
      }
    }
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query(
      `insert into play_records (device, screen_name, screen_kind, stream_id, stream_name, position, started_at, ended_at, playing_ms)
        select * from jsonb_to_recordset($1::jsonb) as v(device text, screen_name text, screen_kind text, stream_id int, stream_name text, position smallint, started_at timestamptz, ended_at timestamptz, playing_ms int)`,
      [JSON.stringify(raw.map(([device, screen_name, screen_kind, stream_id, stream_name, position, started_at, ended_at, playing_ms]) => ({ device, screen_name, screen_kind, stream_id, stream_name, position, started_at, ended_at, playing_ms })))],
    );
    await client.end();
    const range = ['2026-11-01', '2026-11-30'];
    const inUtc = await rows(url, RAW_DAILY, [...range, 'UTC']);
    const inZone = await rows(url, RAW_DAILY, [...range, ZONE]);
    expect(inUtc.length).toBeGreaterThan(40);
    expect(inZone.map((r) => r.day)).toContain('2026-11-24'); // the zone's days run past UTC's

    await migrate(orm);
    expect(await rows(url, 'select 1 from pg_tables where tablename = $1', ['play_records'])).toEqual([]);
    expect(await partitionDays(orm.em.fork())).toEqual(['2026-11-20', '2026-11-21', '2026-11-22', '2026-11-23']);
    expect(await dayZone(orm.em.fork())).toBe('UTC');
    expect(await rows(url, DAYS, range)).toEqual(inUtc);

    expect(await keepDaysIn(orm.em.fork(), ZONE)).toBe(true);
    expect(await rows(url, DAYS, range)).toEqual(inZone);
    // And what the console shows: the same seconds per stream, a deleted one under its name.
    const shown = await playTotals(orm.em.fork(), { group: 'stream', from: range[0], to: range[1] }, { retentionDays: 90, timeZone: ZONE }, base);
    expect(shown.time_zone).toBe(ZONE);
    const perStream = new Map<string, number>();
    for (const r of inZone) perStream.set(r.stream, (perStream.get(r.stream) ?? 0) + Number(r.ms));
    expect(shown.rows.map((r) => r.seconds).sort()).toEqual([...perStream.values()].map((ms) => Math.round(ms / 100) / 10).sort());
    expect(shown.rows.map((r) => r.label).sort()).toEqual(['Gone cam', 'Other gone cam', 'Raw A', 'Raw B', 'Raw C']);
  }, 60_000);
});

describe('reports add to the totals', () => {
  let db: TestDatabase;
  let one: Orm;
  let two: Orm;
  const device = 'rollup-wall-0001';
  const now = Date.now();
  /** What the records said, per day in the zone and stream. */
  const said = new Map<string, { ms: number; playing: number }>();
  let sent = 0;

  beforeAll(async () => {
    db = await createTestDatabase();
    // Two nodes on one database.
    one = await initORM({ url: db.url, poolMax: 4 });
    two = await initORM({ url: db.url, poolMax: 4 });
    await keepDaysIn(one.em.fork(), ZONE);
  });
  afterAll(async () => {
    await one?.close();
    await two?.close();
    await db?.drop();
  });

  it('per day in the zone and stream, exactly what the records said — each report sent twice, to two nodes at once', async () => {
    const [s1, s2, s3] = [await buildStream(one.em.fork(), { name: 'Roll 1' }), await buildStream(one.em.fork(), { name: 'Roll 2' }), await buildStream(one.em.fork(), { name: 'Roll 3' })];
    // 36 hours (over a midnight in the zone): position 1 shows s1, then s3; position 2 shows s2 throughout.
    const start = Math.floor((now - 36 * 3_600_000) / MINUTE) * MINUTE;
    const change = start + 20 * 3_600_000 + 7 * MINUTE;
    const end = Math.floor((now - MINUTE) / MINUTE) * MINUTE;
    await writeAssignments(one.em.fork(), [
      { screen: device, at: start, sceneId: null, streams: [s1.id, s2.id, null, null, null] },
      { screen: device, at: change, sceneId: null, streams: [s3.id, s2.id, null, null, null] },
    ]);
    const { next } = seeded(7);
    const records: PlayRecord[] = [];
    for (let at = start; at < end; at += MINUTE) {
      for (const [position, stream] of [[1, at < change ? s1.id : s3.id], [2, s2.id]] as const) {
        const playing = Math.floor(next() * MINUTE);
        records.push({ stream_id: stream, position, scene_id: null, from: at, to: at + MINUTE, playing_ms: playing });
        const key = `${dayIn(ZONE, at)} ${stream}`;
        const total = said.get(key) ?? { ms: 0, playing: 0 };
        total.ms += MINUTE;
        total.playing += playing;
        said.set(key, total);
      }
    }
    expect(new Set([...said.keys()].map((k) => k.split(' ')[0])).size).toBeGreaterThanOrEqual(2);
    const screen = { device, name: 'Rollup wall', kind: 'wall' as const, position: null };
    const settings = { retentionDays: 90, timeZone: ZONE };
    let kept = 0;
    for (let i = 0; i < records.length; i += 120) {
      const report = records.slice(i, i + 120);
      const [a, b] = await Promise.all([recordPlays(one.em.fork(), screen, report, settings, now, 800), recordPlays(two.em.fork(), screen, report, settings, now, 800)]);
      // One node keeps the report; the other finds every second of it counted.
      for (let k = 0; k < report.length; k++) expect([a[k], b[k]].sort()).toEqual(['covered', 'kept']);
      kept += a.filter((v) => v === 'kept').length + b.filter((v) => v === 'kept').length;
      sent += report.length;
    }
    expect(kept).toBe(records.length);
    // Sent again later: nothing more.
    expect(new Set(await recordPlays(two.em.fork(), screen, records.slice(0, 120), settings, now, 800))).toEqual(new Set(['covered']));

    const days = await one.em.fork().execute<{ day: string; stream: number; ms: string; playing: string }[]>(
      `select to_char(d.day, 'YYYY-MM-DD') as day, d.stream, d.ms, d.playing from play_days d join play_screens s on s.id = d.screen where s.device = ?`,
      [device],
    );
    expect(new Map(days.map((d) => [`${d.day} ${d.stream}`, { ms: Number(d.ms), playing: Number(d.playing) }]))).toEqual(said);
    // The quarters hold the same seconds, each in the quarter hour its records started in.
    const [quarters] = await one.em.fork().execute<{ ms: string; n: string; first: string }[]>('select sum(ms)::text as ms, count(*)::text as n, min(quarter) as first from play_quarters');
    expect(Number(quarters!.ms)).toBe(records.length * MINUTE);
    expect(new Date(quarters!.first).getTime()).toBe(Math.floor(start / QUARTER_MS) * QUARTER_MS);
    const [positions] = await one.em.fork().execute<{ until: string }[]>('select max(kept_until) as until from play_positions');
    expect(new Date(positions!.until).getTime()).toBe(end);
  }, 120_000);

  it('a new zone sums the days again from the quarters, once, however many nodes start with it', async () => {
    const results = await Promise.all([keepDaysIn(one.em.fork(), 'America/St_Johns'), keepDaysIn(two.em.fork(), 'America/St_Johns')]);
    expect(results.sort()).toEqual([false, true]);
    const days = await one.em.fork().execute<{ day: string; ms: string }[]>(`select to_char(day, 'YYYY-MM-DD') as day, sum(ms)::text as ms from play_days group by 1 order by 1`);
    const expected = new Map<string, number>();
    // From the quarters themselves: each minute record's day in the new zone.
    const quarterDays = await one.em.fork().execute<{ day: string; ms: string }[]>(
      `select to_char(quarter at time zone 'America/St_Johns', 'YYYY-MM-DD') as day, sum(ms)::text as ms from play_quarters group by 1 order by 1`,
    );
    for (const q of quarterDays) expected.set(q.day, Number(q.ms));
    expect(new Map(days.map((d) => [d.day, Number(d.ms)]))).toEqual(expected);
    expect([...expected.values()].reduce((a, b) => a + b, 0)).toBe(sent * MINUTE);
    // The names came along.
    const names = await one.em.fork().execute<{ stream_name: string }[]>('select distinct stream_name from play_days order by 1');
    expect(names.map((n) => n.stream_name)).toEqual(['Roll 1', 'Roll 2', 'Roll 3']);
    await keepDaysIn(one.em.fork(), ZONE);
  });

  it('retention drops whole day partitions, then forgets the days, kept-untils and screens nothing needs', async () => {
    const before = await partitionDays(one.em.fork());
    expect(before.length).toBeGreaterThanOrEqual(2);
    // A day later, with a day's retention: every partition that ended a day ago goes, the rest stays.
    const later = now + DAY;
    const cut = later - DAY;
    const { dropped } = await forgetPlays(one.em.fork(), 1, later);
    expect(dropped).toEqual(before.filter((d) => Date.parse(`${d}T00:00:00Z`) + DAY <= cut));
    expect(await partitionDays(one.em.fork())).toEqual(before.filter((d) => !dropped.includes(d)));
    const [left] = await one.em.fork().execute<{ first: string | null }[]>('select min(day)::text as first from play_days');
    expect(left!.first! >= dayIn(ZONE, cut), `${left!.first} ${dayIn(ZONE, cut)}`).toBe(true);
    expect((await one.em.fork().execute<{ n: string }[]>('select count(*)::text as n from play_screens'))[0]!.n).toBe('1');
    // A year later: nothing is left of the screen.
    await forgetPlays(one.em.fork(), 1, now + 365 * DAY);
    expect(await partitionDays(one.em.fork())).toEqual([]);
    for (const table of ['play_days', 'play_positions', 'play_screens', 'play_quarters']) {
      expect((await one.em.fork().execute<{ n: string }[]>(`select count(*)::text as n from ${table}`))[0]!.n, table).toBe('0');
    }
  });
});
