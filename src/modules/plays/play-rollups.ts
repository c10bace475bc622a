/**
 * How proof of play is kept (issue 42): totals, not raw records. What a report keeps after the
 * rules adds to its screen's quarter hours (`play_quarters`, partitioned by UTC day) and days in
 * the report zone (`play_days`), and moves the screen's kept-until per position — all in the
 * report's transaction, under its screen's lock, so a report sent twice, or to two nodes, counts
 * each second once (the second finds it covered). Retention drops whole day partitions.
 *
 * A record counts in the quarter hour it starts in (screens cut at whole minutes: none crosses
 * one), so days in any allowed zone — whose offsets are whole quarter hours — are whole quarters.
 */
import type { EntityManager } from '../../db.ts';
import { MAX_PLAY_AGE_MS, MAX_PLAY_RECORD_MS, PLAY_CLOCK_TOLERANCE_MS, type PlayRecord } from '../../shared/plays.ts';

export const QUARTER_MS = 15 * 60_000;
const DAY_MS = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString();

/** The quarter hour an instant is in (its start, ms). */
export const quarterOf = (at: number) => Math.floor(at / QUARTER_MS) * QUARTER_MS;
/** The UTC day an instant is in, as YYYY-MM-DD (its quarters' partition). */
const utcDay = (at: number) => iso(at).slice(0, 10);

/** A screen proof of play counts for, as kept: its number and where its kept time ends per position. */
export interface KeptScreen {
  id: number | null;
  keptUntil: Map<number, number>;
}

/** Where `device`'s kept time ends per position (null id: nothing kept for it yet). */
export async function keptScreen(tx: EntityManager, device: string): Promise<KeptScreen> {
  const rows = await tx.execute<{ id: number; position: number | null; kept_until: string | null }[]>(
    'select s.id, p.position, p.kept_until from play_screens s left join play_positions p on p.screen = s.id where s.device = ?',
    [device],
    'all',
  );
  const keptUntil = new Map<number, number>();
  for (const r of rows) if (r.position !== null) keptUntil.set(Number(r.position), new Date(r.kept_until!).getTime());
  return { id: rows[0]?.id ?? null, keptUntil };
}

/**
 * Makes sure the day partitions records from `from`..`to` would land in exist — only within what
 * the rules accept (a record older than MAX_PLAY_AGE_MS or from the future is refused, and must
 * not make a partition for its day). Outside any transaction: a new partition locks the table.
 */
export async function ensurePartitions(em: EntityManager, from: number, to: number, now: number): Promise<void> {
  const first = Math.max(from, now - MAX_PLAY_AGE_MS - MAX_PLAY_RECORD_MS);
  const last = Math.min(to, now + PLAY_CLOCK_TOLERANCE_MS);
  const days: string[] = [];
  for (let day = Date.parse(`${utcDay(first)}T00:00:00Z`); day <= last; day += DAY_MS) days.push(utcDay(day));
  if (days.length > 0) await em.execute('select play_quarters_partition(d::date) from jsonb_array_elements_text(?::jsonb) d', [JSON.stringify(days)], 'run');
}

/** What one report keeps, as it adds to the totals. */
export interface KeptPlay extends PlayRecord {
  stream_name: string;
}

/**
 * Adds what a screen's report keeps to its totals, in the report's transaction: its screen row
 * (newest name and kind), kept-until per position, quarters and days (in the stored zone).
 */
export async function addPlays(tx: EntityManager, screen: { device: string; name: string | null; kind: 'wall' | 'kiosk' }, known: number | null, kept: readonly KeptPlay[]): Promise<void> {
  const ends = new Map<number, number>();
  const quarters = new Map<string, { quarter: string; position: number; stream: number; name: string; ms: number; playing: number }>();
  for (const r of kept) {
    ends.set(r.position, Math.max(ends.get(r.position) ?? -Infinity, r.to));
    const quarter = quarterOf(r.from);
    const key = `${quarter}:${r.position}:${r.stream_id}`;
    const q = quarters.get(key) ?? { quarter: iso(quarter), position: r.position, stream: r.stream_id, name: r.stream_name, ms: 0, playing: 0 };
    q.ms += r.to - r.from;
    q.playing += r.playing_ms;
    quarters.set(key, q);
  }
  const seen = iso(Math.max(...ends.values()));
  const [{ id }] = await tx.execute<[{ id: number }]>(
    known === null
      ? `insert into play_screens (device, name, kind, seen_at) values (?, ?, ?, ?::timestamptz)
          on conflict (device) do update set name = excluded.name, kind = excluded.kind, seen_at = greatest(play_screens.seen_at, excluded.seen_at) returning id`
      : 'update play_screens set name = ?, kind = ?, seen_at = greatest(seen_at, ?::timestamptz) where id = ? returning id',
    known === null ? [screen.device, screen.name, screen.kind, seen] : [screen.name, screen.kind, seen, known],
    'all',
  );
  await tx.execute(
    `insert into play_positions (screen, position, kept_until)
      select ?, v.position, v.until from jsonb_to_recordset(?::jsonb) as v(position smallint, until timestamptz)
      on conflict (screen, position) do update set kept_until = greatest(play_positions.kept_until, excluded.kept_until)`,
    [id, JSON.stringify([...ends].map(([position, to]) => ({ position, until: iso(to) })))],
    'run',
  );
  const rows = JSON.stringify([...quarters.values()]);
  await tx.execute(
    `insert into play_quarters (quarter, screen, position, stream, ms, playing)
      select v.quarter, ?, v.position, v.stream, v.ms, v.playing from jsonb_to_recordset(?::jsonb) as v(quarter timestamptz, position smallint, stream int, ms int, playing int)
      on conflict (quarter, screen, position, stream) do update set ms = play_quarters.ms + excluded.ms, playing = play_quarters.playing + excluded.playing`,
    [id, rows],
    'run',
  );
  // The zone is read under a share lock: a zone change (rebuildDays) waits for this report, or this report for it.
  await tx.execute(
    `insert into play_days (day, screen, stream, stream_name, ms, playing)
      select (v.quarter at time zone z.zone)::date, ?, v.stream, (array_agg(v.name order by v.quarter desc))[1], sum(v.ms), sum(v.playing)
      from jsonb_to_recordset(?::jsonb) as v(quarter timestamptz, stream int, name text, ms int, playing int), (select zone from play_day_zone for share) z
      group by 1, 3
      on conflict (day, screen, stream) do update set ms = play_days.ms + excluded.ms, playing = play_days.playing + excluded.playing, stream_name = excluded.stream_name`,
    [id, rows],
    'run',
  );
}

/** The zone the days are kept in. */
export async function dayZone(em: EntityManager): Promise<string> {
  const rows = await em.execute<{ zone: string }[]>('select zone from play_day_zone', [], 'all');
  return rows[0]?.zone ?? 'UTC';
}

/**
 * Keeps the days in `zone`: where they are in another, they are summed again from the quarters
 * (each stream under the newest name it had). Run by every node as it starts; the first to see a
 * new zone rebuilds, the others find it done. Returns whether it rebuilt.
 */
export async function keepDaysIn(em: EntityManager, zone: string): Promise<boolean> {
  return em.transactional(async (tx) => {
    const [current] = await tx.execute<{ zone: string }[]>('select zone from play_day_zone for update', [], 'all');
    if (current?.zone === zone) return false;
    await tx.execute(
      `create temporary table play_names on commit drop as
        select distinct on (stream) stream, stream_name from play_days order by stream, day desc`,
      [],
      'run',
    );
    await tx.execute('delete from play_days', [], 'run');
    await tx.execute(
      `insert into play_days (day, screen, stream, stream_name, ms, playing)
        select (q.quarter at time zone ?)::date, q.screen, q.stream, coalesce(min(n.stream_name), 'Stream ' || q.stream), sum(q.ms), sum(q.playing)
        from play_quarters q join play_screens s on s.id = q.screen left join play_names n on n.stream = q.stream
        group by 1, 2, 3`,
      [zone],
      'run',
    );
    // Updated in place (a node waiting on the row reads the new zone and finds the work done).
    if (current) await tx.execute('update play_day_zone set zone = ?', [zone], 'run');
    else await tx.execute('insert into play_day_zone (zone) values (?)', [zone], 'run');
    return true;
  });
}

/** The partitions that exist, by UTC day (YYYY-MM-DD). */
export async function partitionDays(em: EntityManager): Promise<string[]> {
  const rows = await em.execute<{ name: string }[]>(
    `select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid where i.inhparent = 'play_quarters'::regclass order by 1`,
    [],
    'all',
  );
  return rows.flatMap((r) => {
    const m = /^play_quarters_p(\d{4})(\d{2})(\d{2})$/.exec(r.name);
    return m ? [`${m[1]}-${m[2]}-${m[3]}`] : [];
  });
}

/**
 * Forgets what ended before `before` (the retention's start): the day partitions wholly before it
 * are dropped (a statement each, not a row at a time; a partition still in use by a report is left
 * for the next round rather than waited for), then the days, kept-untils and screens nothing can
 * need. Returns the days whose partitions were dropped, and those left for the next round.
 */
export async function forgetTotals(em: EntityManager, before: number, zone: string): Promise<{ dropped: string[]; busy: string[] }> {
  const dropped: string[] = [];
  const busy: string[] = [];
  for (const day of await partitionDays(em)) {
    if (Date.parse(`${day}T00:00:00Z`) + DAY_MS > before) continue;
    try {
      await em.transactional(async (tx) => {
        await tx.execute("set local lock_timeout = '2s'", [], 'run');
        await tx.execute(`drop table if exists "play_quarters_p${day.replaceAll('-', '')}"`, [], 'run');
      });
      dropped.push(day);
    } catch {
      busy.push(day);
    }
  }
  await em.execute('delete from play_days where day < (?::timestamptz at time zone ?)::date', [iso(before), zone], 'run');
  // A record ending before the rules' horizon is refused as too old: where its position's kept time ended no longer matters.
  await em.execute('delete from play_positions where kept_until < ?::timestamptz', [iso(before - MAX_PLAY_RECORD_MS)], 'run');
  // Its last day is gone (a screen's quarters all start before its seen_at, in partitions already dropped).
  await em.execute(
    'delete from play_screens s where s.seen_at < ?::timestamptz and not exists (select 1 from play_days d where d.screen = s.id)',
    [iso(before - DAY_MS)],
    'run',
  );
  return { dropped, busy };
}
