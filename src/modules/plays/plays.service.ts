/**
 * Proof of play, kept and counted: a screen's records go through the rules of
 * src/shared/plays.ts against what the screen was assigned (play-assignments.ts) — one screen at a
 * time, under a lock on its device, so two reports cannot count the same second twice — and what
 * is kept adds to its totals (play-rollups.ts); the console reads the days' totals per stream,
 * per screen or per day, with days in the zone they are kept in (PLAYS_TIME_ZONE).
 */
import type { EntityManager } from '../../db.ts';
import type { PlayTotalDto, PlaysDto, PlaysQuery } from '../../shared/api/plays.ts';
import { judgePlays, type PlayGroup, type PlayRecord, type PlayVerdict } from '../../shared/plays.ts';
import { streamNames } from '../streams/stream-reads.ts';
import { assignmentsBetween, everAssigned, forgetAssignments } from './play-assignments.ts';
import { addPlays, dayZone, ensurePartitions, forgetTotals, keptScreen, type KeptPlay } from './play-rollups.ts';

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
  await ensurePartitions(em, Math.min(...records.map((r) => r.from)), Math.max(...records.map((r) => r.from)), now);
  return em.transactional(async (tx) => {
    await tx.execute('select pg_advisory_xact_lock(hashtext(?))', [`plays:${screen.device}`], 'run');
    const kept = await keptScreen(tx, screen.device);
    const span = { from: Math.min(...records.map((r) => r.from)) - slackMs, to: Math.max(...records.map((r) => r.to)) + slackMs };
    const assignments = await assignmentsBetween(tx, screen.device, span.from, span.to);
    const { keep, verdicts } = judgePlays(records, { now, position: screen.position, keptUntil: kept.keptUntil, retentionMs: settings.retentionDays * DAY_MS, assignments, slackMs });
    await neverOrNotThen(tx, screen.device, records, verdicts);
    const names = await streamNames(tx, keep.map((k) => k.record.stream_id));
    const plays: KeptPlay[] = [];
    for (const { index, record } of keep) {
      const name = names.get(record.stream_id);
      if (name !== undefined) plays.push({ ...record, stream_name: name });
      else verdicts[index] = 'unknown-stream';
    }
    await noteRefusals(tx, screen, verdicts, now);
    if (plays.length > 0) await addPlays(tx, screen, kept.id, plays);
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

/**
 * Forgets what is older than the retention: the totals (whole day partitions: forgetTotals), the
 * refusal counts and the assignments no record within it can need.
 */
export async function forgetPlays(em: EntityManager, retentionDays: number, now: number): Promise<{ dropped: string[]; busy: string[] }> {
  const before = now - retentionDays * DAY_MS;
  await em.execute('delete from play_refusals where last_at < ?::timestamptz', [iso(before)], 'run');
  await forgetAssignments(em, before);
  return forgetTotals(em, before, await dayZone(em));
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
  /** Below zero: a stream deleted before totals were kept (Migration20261127220000_play_rollups). */
  stream_id: number;
  stream_name: string;
  ms: string;
  playing: string;
}

/** Totals per day, screen and stream (what every report is summed from), each screen under its newest name. */
async function dailyRows(em: EntityManager, days: { from: string; to: string }): Promise<Row[]> {
  return em.execute<Row[]>(
    `select to_char(d.day, 'YYYY-MM-DD') as day, s.device, s.name as screen_name, d.stream as stream_id, d.stream_name, d.ms, d.playing
      from play_days d join play_screens s on s.id = d.screen
      where d.day between ?::date and ?::date
      order by d.day, s.device, d.stream`,
    [within(days.from), within(days.to)],
    'all',
  );
}

/**
 * The days' totals summed per stream, screen or day — in the database: a 90-day range is a few
 * rows back, not every day's. Summed per screen and stream first, then per group (counting the
 * first step's rows is cheaper than counting distinct values over every day's); a stream is said
 * under its newest name, a screen under its own.
 */
const GROUPED: Record<PlayGroup, string> = {
  stream: `with per as (
      select d.stream, d.screen, sum(d.ms) as ms, sum(d.playing) as playing, max(d.day) as last, (array_agg(d.stream_name order by d.day desc))[1] as name
      from play_days d where d.day between ?::date and ?::date group by d.stream, d.screen
    )
    select stream::text as key, (array_agg(name order by last desc))[1] as label, sum(ms) as ms, sum(playing) as playing, count(*) as screens, 1 as streams
    from per group by stream order by stream`,
  screen: `with per as (
      select d.screen, d.stream, sum(d.ms) as ms, sum(d.playing) as playing from play_days d where d.day between ?::date and ?::date group by d.screen, d.stream
    )
    select s.device as key, coalesce(s.name, s.device) as label, sum(per.ms) as ms, sum(per.playing) as playing, 1 as screens, count(*) as streams
    from per join play_screens s on s.id = per.screen group by s.id order by s.id`,
  day: `select to_char(d.day, 'YYYY-MM-DD') as key, to_char(d.day, 'YYYY-MM-DD') as label, sum(d.ms) as ms, sum(d.playing) as playing,
      count(distinct d.screen) as screens, count(distinct d.stream) as streams
    from play_days d where d.day between ?::date and ?::date group by d.day order by d.day`,
};

async function groupedRows(em: EntityManager, days: { from: string; to: string }, group: PlayGroup) {
  return em.execute<{ key: string; label: string; ms: string; playing: string; screens: string; streams: string }[]>(GROUPED[group], [within(days.from), within(days.to)], 'all');
}

const seconds = (ms: number) => Math.round(ms / 100) / 10;

/** GET /api/plays: totals per stream, screen or day. */
export async function playTotals(em: EntityManager, query: PlaysQuery, settings: PlaySettings, now: number): Promise<PlaysDto> {
  const timeZone = await dayZone(em);
  const days = daysOf(query, timeZone, now);
  const [rows, refusals] = await Promise.all([
    groupedRows(em, days, query.group),
    em.execute<{ device: string; screen_name: string | null; reason: string; count: number; last_at: string }[]>(
      'select device, screen_name, reason, count, last_at from play_refusals order by last_at desc, device, reason limit 200',
      [],
      'all',
    ),
  ]);
  const out: PlayTotalDto[] = rows.map((r) => {
    const [ms, playing] = [Number(r.ms), Number(r.playing)];
    return {
      key: r.key,
      label: r.label,
      seconds: seconds(ms),
      playing_seconds: seconds(playing),
      playing_share: ms > 0 ? Math.round((playing / ms) * 1000) / 1000 : null,
      screens: Number(r.screens),
      streams: Number(r.streams),
    };
  });
  if (query.group !== 'day') out.sort((a, b) => b.seconds - a.seconds || a.label.localeCompare(b.label));
  return {
    group: query.group,
    ...days,
    time_zone: timeZone,
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
  const days = daysOf(query, await dayZone(em), now);
  const rows = await dailyRows(em, days);
  const lines = [['day', 'screen_device', 'screen_name', 'stream_id', 'stream_name', 'seconds', 'playing_seconds'].join(',')];
  for (const r of rows) lines.push([r.day, r.device, r.screen_name, r.stream_id > 0 ? r.stream_id : null, r.stream_name, seconds(Number(r.ms)), seconds(Number(r.playing))].map(csvField).join(','));
  return `${lines.join('\r\n')}\r\n`;
}
