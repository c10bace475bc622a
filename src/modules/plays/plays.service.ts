/**
 * Proof of play, kept and counted: a screen's records go through the rules of
 * src/shared/plays.ts against what the screen was assigned (play-assignments.ts) — one screen at a
 * time, under a lock on its device, so two reports cannot count the same second twice — and are
 * written with the stream's name; the console reads totals
 * per stream, per screen or per day, with days in the configured time zone.
 */
import type { EntityManager } from '../../db.ts';
import type { PlayTotalDto, PlaysDto, PlaysQuery } from '../../shared/api/plays.ts';
import { judgePlays, type PlayRecord, type PlayVerdict } from '../../shared/plays.ts';
import { streamNames } from '../streams/stream-reads.ts';
import { assignmentsBetween, everAssigned, forgetAssignments } from './play-assignments.ts';

export interface PlayingScreen {
  device: string;
  name: string | null;
  kind: 'wall' | 'kiosk';
  /** A kiosk's own position (it may report no other); null for a wall. */
  position: number | null;
}

export interface PlaySettings {
  retentionDays: number;
  timeZone: string;
}

const DAY_MS = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString();

/**
 * Keeps what a screen reports, after the rules — against what it was assigned over the records'
 * time, each stretch widened by `slackMs` — ; the verdict of each record sent, in order.
 */
export async function recordPlays(em: EntityManager, screen: PlayingScreen, records: readonly PlayRecord[], settings: PlaySettings, now: number, slackMs: number): Promise<PlayVerdict[]> {
  return em.transactional(async (tx) => {
    await tx.execute('select pg_advisory_xact_lock(hashtext(?))', [`plays:${screen.device}`], 'run');
    const ends = await tx.execute<{ position: number; until: string }[]>(
      'select position, max(ended_at) as until from play_records where device = ? group by position',
      [screen.device],
      'all',
    );
    const keptUntil = new Map(ends.map((e) => [Number(e.position), new Date(e.until).getTime()]));
    const span = { from: Math.min(...records.map((r) => r.from)) - slackMs, to: Math.max(...records.map((r) => r.to)) + slackMs };
    const assignments = await assignmentsBetween(tx, screen.device, span.from, span.to);
    const { keep, verdicts } = judgePlays(records, { now, position: screen.position, keptUntil, retentionMs: settings.retentionDays * DAY_MS, assignments, slackMs });
    await neverOrNotThen(tx, screen.device, records, verdicts);
    const names = await streamNames(tx, keep.map((k) => k.record.stream_id));
    const rows = [];
    for (const { index, record: r } of keep) {
      const name = names.get(r.stream_id);
      if (name !== undefined) rows.push({ stream_id: r.stream_id, stream_name: name, position: r.position, scene_id: r.scene_id, started_at: iso(r.from), ended_at: iso(r.to), playing_ms: r.playing_ms });
      else verdicts[index] = 'unknown-stream';
    }
    await noteRefusals(tx, screen, verdicts, now);
    if (rows.length === 0) return verdicts;
    await tx.execute(
      `insert into play_records (device, screen_name, screen_kind, stream_id, stream_name, scene_id, position, started_at, ended_at, playing_ms)
        select ?, ?, ?, v.stream_id, v.stream_name, v.scene_id, v.position, v.started_at, v.ended_at, v.playing_ms
        from jsonb_to_recordset(?::jsonb) as v(stream_id int, stream_name text, position smallint, scene_id int, started_at timestamptz, ended_at timestamptz, playing_ms int)`,
      [screen.device, screen.name, screen.kind, JSON.stringify(rows)],
      'run',
    );
    return verdicts;
  });
}

/** A record not assigned then is `never-assigned` where the screen's whole history never had its stream at its position. */
async function neverOrNotThen(tx: EntityManager, screen: string, records: readonly PlayRecord[], verdicts: PlayVerdict[]): Promise<void> {
  const pairs = new Map<string, { position: number; stream: number }>();
  records.forEach((r, i) => verdicts[i] === 'not-assigned' && pairs.set(`${r.position}:${r.stream_id}`, { position: r.position, stream: r.stream_id }));
  if (pairs.size === 0) return;
  const ever = await everAssigned(tx, screen, [...pairs.values()]);
  records.forEach((r, i) => {
    if (verdicts[i] === 'not-assigned' && !ever.has(`${r.position}:${r.stream_id}`)) verdicts[i] = 'never-assigned';
  });
}

/** Counts what was not kept as sent (clipped, or refused and why), per screen and reason, in the report's transaction. */
async function noteRefusals(tx: EntityManager, screen: PlayingScreen, verdicts: readonly PlayVerdict[], now: number): Promise<void> {
  const counts = new Map<string, number>();
  for (const verdict of verdicts) if (verdict !== 'kept') counts.set(verdict, (counts.get(verdict) ?? 0) + 1);
  if (counts.size === 0) return;
  await tx.execute(
    `insert into play_refusals (device, reason, screen_name, count, last_at)
      select ?, v.reason, ?, v.count, ?::timestamptz from jsonb_to_recordset(?::jsonb) as v(reason text, count int)
      on conflict (device, reason) do update set count = play_refusals.count + excluded.count, last_at = excluded.last_at, screen_name = excluded.screen_name`,
    [screen.device, screen.name, iso(now), JSON.stringify([...counts].map(([reason, count]) => ({ reason, count })))],
    'run',
  );
}

/** Deletes what is older than the retention (and the assignments no record within it can need). */
export async function forgetPlays(em: EntityManager, retentionDays: number, now: number): Promise<number> {
  await em.execute('delete from play_refusals where last_at < ?::timestamptz', [iso(now - retentionDays * DAY_MS)], 'run');
  await forgetAssignments(em, now - retentionDays * DAY_MS);
  const result = await em.execute<{ affectedRows?: number }>('delete from play_records where ended_at < ?::timestamptz', [iso(now - retentionDays * DAY_MS)], 'run');
  return result.affectedRows ?? 0;
}

/** Today in `timeZone`, as YYYY-MM-DD. */
export function dayIn(timeZone: string, at: number): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(at);
}

/** Days the database is asked about: no record is older than the epoch or from after 2999 (any day outside names none). */
const FIRST_DAY = '1970-01-01';
const LAST_DAY = '2999-12-31';
const within = (day: string) => (day < FIRST_DAY ? FIRST_DAY : day > LAST_DAY ? LAST_DAY : day);

/** The days a query covers (default: the last seven, today included). */
export function daysOf(query: Pick<PlaysQuery, 'from' | 'to'>, timeZone: string, now: number): { from: string; to: string } {
  const to = query.to ?? dayIn(timeZone, now);
  const from = query.from ?? new Date(Date.parse(`${within(to)}T00:00:00Z`) - 6 * DAY_MS).toISOString().slice(0, 10);
  return { from, to };
}

interface Row {
  day: string;
  device: string;
  screen_name: string | null;
  stream_id: number | null;
  stream_name: string;
  ms: string;
  playing: string;
}

/** Totals per day, screen and stream (what every report is summed from), each screen under its newest name. */
async function dailyRows(em: EntityManager, days: { from: string; to: string }, timeZone: string): Promise<Row[]> {
  return em.execute<Row[]>(
    `with p as (
        select * from play_records
        where started_at >= (?::date)::timestamp at time zone ? and started_at < (?::date + 1)::timestamp at time zone ?
      ),
      names as (
        select distinct on (device) device, screen_name from play_records
        where device in (select device from p) order by device, ended_at desc
      )
      select to_char(p.started_at at time zone ?, 'YYYY-MM-DD') as day, p.device, min(n.screen_name) as screen_name,
        p.stream_id, (array_agg(p.stream_name order by p.ended_at desc))[1] as stream_name,
        sum(extract(epoch from p.ended_at - p.started_at) * 1000)::bigint as ms, sum(p.playing_ms)::bigint as playing
      from p join names n on n.device = p.device
      group by 1, p.device, p.stream_id, case when p.stream_id is null then p.stream_name end
      order by 1, p.device, p.stream_id`,
    [within(days.from), timeZone, within(days.to), timeZone, timeZone],
    'all',
  );
}

const seconds = (ms: number) => Math.round(ms / 100) / 10;

/** GET /api/plays: totals per stream, screen or day. */
export async function playTotals(em: EntityManager, query: PlaysQuery, settings: PlaySettings, now: number): Promise<PlaysDto> {
  const days = daysOf(query, settings.timeZone, now);
  const [rows, refusals] = await Promise.all([
    dailyRows(em, days, settings.timeZone),
    em.execute<{ device: string; screen_name: string | null; reason: string; count: number; last_at: string }[]>(
      'select device, screen_name, reason, count, last_at from play_refusals order by last_at desc, device, reason limit 200',
      [],
      'all',
    ),
  ]);
  const groups = new Map<string, { label: string; ms: number; playing: number; screens: Set<string>; streams: Set<string> }>();
  for (const r of rows) {
    const stream = r.stream_id === null ? `deleted:${r.stream_name}` : String(r.stream_id);
    const [key, label] = query.group === 'stream' ? [stream, r.stream_name] : query.group === 'screen' ? [r.device, r.screen_name ?? r.device] : [r.day, r.day];
    const g = groups.get(key) ?? { label, ms: 0, playing: 0, screens: new Set(), streams: new Set() };
    g.ms += Number(r.ms);
    g.playing += Number(r.playing);
    g.screens.add(r.device);
    g.streams.add(stream);
    groups.set(key, g);
  }
  const out: PlayTotalDto[] = [...groups].map(([key, g]) => ({
    key,
    label: g.label,
    seconds: seconds(g.ms),
    playing_seconds: seconds(g.playing),
    playing_share: g.ms > 0 ? Math.round((g.playing / g.ms) * 1000) / 1000 : null,
    screens: g.screens.size,
    streams: g.streams.size,
  }));
  if (query.group !== 'day') out.sort((a, b) => b.seconds - a.seconds || a.label.localeCompare(b.label));
  return {
    group: query.group,
    ...days,
    time_zone: settings.timeZone,
    retention_days: settings.retentionDays,
    rows: out,
    refused: refusals.reduce((sum, r) => sum + Number(r.count), 0),
    refusals: refusals.map((r) => ({ key: r.device, label: r.screen_name ?? r.device, reason: r.reason as Exclude<PlayVerdict, 'kept'>, count: Number(r.count), last_at: new Date(r.last_at).toISOString() })),
  };
}

/** A CSV field: quoted when it must be, and never read as a formula by a spreadsheet. */
function csvField(value: string | number | null): string {
  if (value === null) return '';
  const text = typeof value === 'number' ? String(value) : /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** GET /api/plays/export.csv: one row per day, screen and stream. */
export async function playsCsv(em: EntityManager, query: PlaysQuery, settings: PlaySettings, now: number): Promise<string> {
  const days = daysOf(query, settings.timeZone, now);
  const rows = await dailyRows(em, days, settings.timeZone);
  const lines = [['day', 'screen_device', 'screen_name', 'stream_id', 'stream_name', 'seconds', 'playing_seconds'].join(',')];
  for (const r of rows) lines.push([r.day, r.device, r.screen_name, r.stream_id, r.stream_name, seconds(Number(r.ms)), seconds(Number(r.playing))].map(csvField).join(','));
  return `${lines.join('\r\n')}\r\n`;
}
