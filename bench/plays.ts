/**
 * `npm run bench:plays`: proof of play at venue scale (issue 42's goals: for 50 screens × 5
 * positions × 90 days, play data ≤ 1/20 of the raw-row design's size, the tab's totals for any
 * 90-day range p99 ≤ 200 ms, a day's retention ≤ 1 s), both designs on the same plays in one run,
 * on the embedded PostgreSQL the quick start runs.
 *
 * 1. The raw-row design (the schema before Migration20261127220000_play_rollups): a row per
 *    screen, position and minute — `--screens` × `--positions` × `--days` × 1,440 rows, each
 *    position showing one of 120 streams, changing every 4 hours, playing 93–100 % of each minute.
 *    Indexes are built after loading (its smallest size). Its totals query (its dailyRows, as it
 *    was) over the whole range, `--raw-runs` times; its day's retention (the oldest day's rows
 *    deleted, timed, and rolled back).
 * 2. This release: the migration folds those rows into totals (timed: what upgrading such a venue
 *    costs), the days are summed again in a +05:45 zone (Asia/Kathmandu), and every total per day,
 *    screen and stream is compared with the raw design's to the millisecond — a run where one
 *    differs is refused (exit 1). Then one more day is written as screens write it — every screen
 *    reporting its five positions every 10 minutes through recordPlays (the report's own path:
 *    judged against its assignments, under its lock) — and that day's partition is weighed
 *    against a folded one. The tab's totals (playTotals, what GET /api/plays answers) for
 *    `--queries` random 90-day ranges per grouping; a day's retention (forgetPlays, a day later).
 *
 * The last line is one JSON object.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { startEmbeddedPostgres } from '../src/embedded-postgres.ts';
import { createLogger } from '../src/logger.ts';
import { writeAssignments } from '../src/modules/plays/play-assignments.ts';
import { keepDaysIn } from '../src/modules/plays/play-rollups.ts';
import { forgetPlays, playTotals, recordPlays } from '../src/modules/plays/plays.service.ts';
import { initORM, migrate } from '../src/orm.ts';
import { PLAY_GROUPS, type PlayRecord } from '../src/shared/plays.ts';
import { benchArgs } from './args.ts';
import { percentile } from './stats.ts';

const { screens: SCREENS, positions: POSITIONS, days: DAYS, queries: QUERIES, 'raw-runs': RAW_RUNS } = benchArgs({ screens: 50, positions: 5, days: 90, queries: 100, 'raw-runs': 3 });
const ZONE = 'Asia/Kathmandu';
const STREAMS = 120;
const DAY_MS = 86_400_000;
const MINUTE = 60_000;
/** The plays start here (a UTC midnight); "now" is after them. */
const BASE = Date.UTC(2026, 7, 1);
const logger = createLogger('silent');
const say = (line: string) => console.log(line);
const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;

/** The stream a screen shows at a position in a minute (counted from BASE): one of 120, changing every 4 hours. */
const streamAt = (screen: number, position: number, minute: number) => 1 + ((screen * 7 + position * 13 + Math.floor(minute / 240)) % STREAMS);
const STREAM_SQL = '1 + ((s * 7 + p * 13 + m / 240) % 120)';
/** How much of a minute played: 93–100 %. */
const playingAt = (screen: number, position: number, minute: number) => 60_000 - ((screen * 7919 + position * 104729 + minute * 31) % 4000);
const PLAYING_SQL = '60000 - ((s * 7919 + p * 104729 + m * 31) % 4000)';

/** The earlier release's totals per day, screen and stream (its dailyRows, as it was). */
const RAW_DAILY = `
  with p as (select * from play_records where started_at >= (?::date)::timestamp at time zone ? and started_at < (?::date + 1)::timestamp at time zone ?),
  names as (select distinct on (device) device, screen_name from play_records where device in (select device from p) order by device, ended_at desc)
  select to_char(p.started_at at time zone ?, 'YYYY-MM-DD') as day, p.device, min(n.screen_name) as screen_name,
    p.stream_id, (array_agg(p.stream_name order by p.ended_at desc))[1] as stream_name,
    sum(extract(epoch from p.ended_at - p.started_at) * 1000)::bigint as ms, sum(p.playing_ms)::bigint as playing
  from p join names n on n.device = p.device
  group by 1, p.device, p.stream_id, case when p.stream_id is null then p.stream_name end
  order by 1, p.device, p.stream_id`;

const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

async function main() {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'nw-bench-plays-'));
  const db = await startEmbeddedPostgres({ dataDir: dir, logger });
  const orm = await initORM({ url: db.url, poolMax: 4 });
  const sql = <T = Record<string, string>>(text: string, params: unknown[] = []) => orm.em.getConnection().execute<T[]>(text, params, 'all');
  try {
    // 1. The raw-row design.
    await orm.migrator.up({ to: 'Migration20261127200000_backups' });
    await sql(`insert into streams (name, url, normalized_url) select 'Bench cam ' || i, 'https://cams.example.org/' || i || '/live.m3u8', 'https://cams.example.org/' || i || '/live.m3u8' from generate_series(1, ${STREAMS}) i`);
    await sql('alter table play_records drop constraint play_records_pkey');
    await sql('drop index play_records_device_position_idx, play_records_started_idx');
    let start = performance.now();
    for (let day = 0; day < DAYS; day++) {
      await sql(
        `insert into play_records (device, screen_name, screen_kind, stream_id, stream_name, scene_id, position, started_at, ended_at, playing_ms, received_at)
          select 'bench-screen-' || lpad(s::text, 3, '0'), 'Bench screen ' || s, 'wall', ${STREAM_SQL}, 'Bench cam ' || (${STREAM_SQL}), null, p,
            ?::timestamptz + m * interval '1 minute', ?::timestamptz + (m + 1) * interval '1 minute', ${PLAYING_SQL}, ?::timestamptz + (m + 1) * interval '1 minute'
          from generate_series(1, ${SCREENS}) s, generate_series(1, ${POSITIONS}) p, generate_series(${day * 1440}, ${day * 1440 + 1439}) m`,
        [new Date(BASE).toISOString(), new Date(BASE).toISOString(), new Date(BASE).toISOString()],
      );
      if (day % 10 === 9) say(`raw rows: ${day + 1} of ${DAYS} days (${round((performance.now() - start) / 1000)} s)`);
    }
    await sql('alter table play_records add primary key (id)');
    await sql('create index play_records_device_position_idx on play_records (device, position, ended_at desc)');
    await sql('create index play_records_started_idx on play_records (started_at)');
    await sql('vacuum analyze play_records');
    const [{ rows: rawRows, bytes: rawBytes }] = (await sql<{ rows: string; bytes: string }>(`select count(*)::text as rows, pg_total_relation_size('play_records')::text as bytes from play_records`)) as [{ rows: string; bytes: string }];
    say(`raw design: ${Number(rawRows).toLocaleString('en')} rows, ${round(Number(rawBytes) / 2 ** 20)} MB (${round(Number(rawBytes) / Number(rawRows))} B a row), loaded in ${round((performance.now() - start) / 1000)} s`);
    const range = [dayOf(BASE - DAY_MS), dayOf(BASE + DAYS * DAY_MS)];
    const rawTimes: number[] = [];
    let raw: Record<string, string>[] = [];
    for (let run = 0; run < RAW_RUNS; run++) {
      start = performance.now();
      raw = await sql(RAW_DAILY, [range[0], ZONE, range[1], ZONE, ZONE]);
      rawTimes.push(performance.now() - start);
      say(`raw design, totals for ${DAYS} days: ${round(rawTimes.at(-1)!)} ms (${raw.length} day/screen/stream rows)`);
    }
    // Timed, then rolled back: the folding below needs every row.
    let rawRetention = 0;
    await orm.em
      .fork()
      .transactional(async (tx) => {
        const at = performance.now();
        await tx.execute('delete from play_records where ended_at < ?::timestamptz', [new Date(BASE + DAY_MS).toISOString()], 'run');
        rawRetention = performance.now() - at;
        throw new Error('rolled back');
      })
      .catch((error: unknown) => {
        if (rawRetention === 0) throw error;
      });
    say(`raw design, a day's retention: ${round(rawRetention)} ms`);

    // 2. This release: the upgrade folds the rows into totals.
    start = performance.now();
    await migrate(orm);
    const upgradeS = (performance.now() - start) / 1000;
    start = performance.now();
    await keepDaysIn(orm.em.fork(), ZONE);
    const rebuildS = (performance.now() - start) / 1000;
    say(`upgrade (fold ${Number(rawRows).toLocaleString('en')} raw rows): ${round(upgradeS)} s; days summed again in ${ZONE}: ${round(rebuildS)} s`);
    const folded = await sql(
      `select to_char(d.day, 'YYYY-MM-DD') as day, s.device, d.stream as stream_id, d.ms::text as ms, d.playing::text as playing
        from play_days d join play_screens s on s.id = d.screen order by 1, 2, 3`,
    );
    const key = (r: Record<string, unknown>) => `${r.day} ${r.device} ${r.stream_id}`;
    const rawTotals = new Map(raw.map((r) => [key(r), `${r.ms} ${r.playing}`]));
    const differ = folded.filter((r) => rawTotals.get(key(r)) !== `${r.ms} ${r.playing}`).length + Math.abs(raw.length - folded.length);
    if (raw.length === 0 || differ > 0) throw new Error(`the totals differ from the raw records' in ${differ} of ${raw.length} day/screen/stream rows`);
    say(`every one of ${raw.length} totals per day, screen and stream equals the raw records', to the millisecond`);
    const playBytes = async () => {
      const [r] = await sql<{ quarters: string; rest: string; partitions: string }>(
        `select (select coalesce(sum(pg_total_relation_size(relid)), 0) from pg_partition_tree('play_quarters'))::text as quarters,
          (select count(*) from pg_partition_tree('play_quarters') where isleaf)::text as partitions,
          (pg_total_relation_size('play_days') + pg_total_relation_size('play_screens') + pg_total_relation_size('play_positions') + pg_total_relation_size('play_day_zone'))::text as rest`,
      );
      return { quarters: Number(r!.quarters), rest: Number(r!.rest), partitions: Number(r!.partitions) };
    };
    await sql('vacuum analyze');
    const sizes = await playBytes();
    const [counts] = await sql<{ quarters: string; days: string }>('select (select count(*) from play_quarters)::text as quarters, (select count(*) from play_days)::text as days');
    const totalBytes = sizes.quarters + sizes.rest;
    say(`totals: ${round(totalBytes / 2 ** 20)} MB (${Number(counts!.quarters).toLocaleString('en')} quarter rows in ${sizes.partitions} partitions, ${Number(counts!.days).toLocaleString('en')} day rows): 1/${round(Number(rawBytes) / totalBytes)} of the raw design`);

    // One more day, as screens write it.
    const day = DAYS;
    const dayStart = BASE + day * DAY_MS;
    for (let s = 1; s <= SCREENS; s++) {
      const told = [];
      for (let m = day * 1440; m < (day + 1) * 1440; m += 240) {
        told.push({ screen: `bench-screen-${String(s).padStart(3, '0')}`, at: BASE + m * MINUTE, sceneId: null, streams: Array.from({ length: 5 }, (_, i) => (i < POSITIONS ? streamAt(s, i + 1, m) : null)) });
      }
      await writeAssignments(orm.em.fork(), told);
    }
    const reportTimes: number[] = [];
    let refused = 0;
    start = performance.now();
    for (let m = day * 1440; m < (day + 1) * 1440; m += 10) {
      for (let s = 1; s <= SCREENS; s++) {
        const records: PlayRecord[] = [];
        for (let p = 1; p <= POSITIONS; p++) {
          for (let k = m; k < m + 10; k++) records.push({ stream_id: streamAt(s, p, k), position: p, scene_id: null, from: BASE + k * MINUTE, to: BASE + (k + 1) * MINUTE, playing_ms: playingAt(s, p, k) });
        }
        const at = performance.now();
        const verdicts = await recordPlays(orm.em.fork(), { device: `bench-screen-${String(s).padStart(3, '0')}`, name: `Bench screen ${s}`, kind: 'wall', position: null }, records, { retentionDays: 90, timeZone: ZONE }, BASE + (m + 10) * MINUTE + 1_000, 800);
        reportTimes.push(performance.now() - at);
        refused += verdicts.filter((v) => v !== 'kept').length;
      }
    }
    if (refused > 0) throw new Error(`${refused} records of the reported day were not kept`);
    await sql('vacuum analyze');
    const [written] = await sql<{ bytes: string; folded: string }>(
      `select pg_total_relation_size(?::regclass)::text as bytes, pg_total_relation_size(?::regclass)::text as folded`,
      [`play_quarters_p${dayOf(dayStart).replaceAll('-', '')}`, `play_quarters_p${dayOf(dayStart - DAY_MS).replaceAll('-', '')}`],
    );
    say(
      `a day written by ${reportTimes.length.toLocaleString('en')} reports (${SCREENS} screens × every 10 minutes, ${POSITIONS * 10} records each) in ${round((performance.now() - start) / 1000)} s: report p50 ${round(percentile(reportTimes, 50), 2)} ms, p99 ${round(percentile(reportTimes, 99), 2)} ms; its partition ${round(Number(written!.bytes) / 2 ** 20, 2)} MB, a folded day's ${round(Number(written!.folded) / 2 ** 20, 2)} MB`,
    );

    // The tab: any 90-day range, each grouping.
    const now = dayStart + DAY_MS - MINUTE;
    const queryTimes: Record<string, number[]> = {};
    let seed = 1;
    const next = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    for (const group of PLAY_GROUPS) {
      queryTimes[group] = [];
      for (let q = 0; q < QUERIES; q++) {
        const to = dayOf(BASE + Math.floor(next() * (DAYS + 1)) * DAY_MS + DAY_MS / 2);
        const from = dayOf(Date.parse(to) - 89 * DAY_MS);
        const at = performance.now();
        const answer = await playTotals(orm.em.fork(), { group, from, to }, { retentionDays: 90, timeZone: ZONE }, now);
        queryTimes[group]!.push(performance.now() - at);
        if (answer.rows.length === 0) throw new Error(`no totals for ${from}..${to}`);
      }
    }
    const all = Object.values(queryTimes).flat();
    say(`the tab's totals for a 90-day range: p50 ${round(percentile(all, 50))} ms, p99 ${round(percentile(all, 99))} ms (${all.length} queries; ${PLAY_GROUPS.map((g) => `${g} p99 ${round(percentile(queryTimes[g]!, 99))}`).join(', ')})`);

    // A day's retention, a day later.
    const before = await playBytes();
    start = performance.now();
    const { dropped } = await forgetPlays(orm.em.fork(), DAYS, dayStart + DAY_MS + 3_600_000);
    const retentionMs = performance.now() - start;
    if (dropped.length !== 1) throw new Error(`a day's retention dropped ${dropped.length} partitions`);
    const afterBytes = await playBytes();
    say(`a day's retention: ${round(retentionMs)} ms (dropped ${dropped.join(', ')}, ${round((before.quarters - afterBytes.quarters) / 2 ** 20, 2)} MB)`);

    console.log(
      JSON.stringify({
        bench: 'plays',
        screens: SCREENS,
        positions: POSITIONS,
        days: DAYS,
        raw: { rows: Number(rawRows), mb: round(Number(rawBytes) / 2 ** 20), bytes_per_row: round(Number(rawBytes) / Number(rawRows)), totals_ms: { p50: round(percentile(rawTimes, 50)), p99: round(percentile(rawTimes, 99)), runs: rawTimes.length }, day_retention_ms: round(rawRetention) },
        totals: {
          mb: round(totalBytes / 2 ** 20),
          of_raw: `1/${round(Number(rawBytes) / totalBytes)}`,
          quarter_rows: Number(counts!.quarters),
          day_rows: Number(counts!.days),
          equal_to_raw: true,
          upgrade_s: round(upgradeS),
          zone_rebuild_s: round(rebuildS),
          report_ms: { p50: round(percentile(reportTimes, 50), 2), p99: round(percentile(reportTimes, 99), 2), reports: reportTimes.length },
          reported_day_mb: round(Number(written!.bytes) / 2 ** 20, 2),
          folded_day_mb: round(Number(written!.folded) / 2 ** 20, 2),
          tab_ms: { p50: round(percentile(all, 50)), p99: round(percentile(all, 99)), queries: all.length },
          day_retention_ms: round(retentionMs),
        },
      }),
    );
  } finally {
    await orm.close();
    await db.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
