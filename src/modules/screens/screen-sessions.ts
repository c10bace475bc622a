/**
 * Screens' connections (screen_sessions), the record their uptime is told from: written by the
 * presence journal (screen-journal.ts) when a wall or kiosk registers and when it leaves, and
 * read as the share of the last day and week it was online (src/shared/uptime.ts).
 */
import type { EntityManager, Orm } from '../../db.ts';
import type { Logger } from '../../logger.ts';
import { screenKey } from '../../realtime/presence.ts';
import type { ScreenPresence } from '../../shared/events.ts';
import type { UptimeDto } from '../../shared/api/uptime.ts';
import { HOUR_MS, intervalTransitions, UPTIME_WINDOWS, uptimeOver, type UpInterval, type UptimeFigures } from '../../shared/uptime.ts';

/** How often a node marks its open connections as still open. */
export const TOUCH_EVERY_MS = 60_000;
/** An open connection not marked for this long belongs to a node that died: it ended when last marked. */
export const STALE_AFTER_MS = 3 * TOUCH_EVERY_MS;
/** Connections that ended longer ago than the longest window (and a day's margin) are dropped, but for each screen's first. */
const KEEP_MS = (UPTIME_WINDOWS.week + 24) * HOUR_MS;
/** Pruning runs every this many touches (hourly). */
const PRUNE_EVERY_TOUCHES = 60;

const iso = (ms: number) => new Date(ms).toISOString();

/** The writes: one open row per connection, closed when it leaves. */
export interface ScreenSessions {
  /** This connection registered (or registered again, or reported a change) at `at`. */
  opened(screen: ScreenPresence, at: number): Promise<void>;
  /** This connection left at `at`. */
  closed(screen: ScreenPresence, at: number): Promise<void>;
  /** Stops the periodic marking. */
  close(): void;
}

export function screenSessions(orm: Orm, options: { logger?: Logger | undefined; touchEveryMs?: number } = {}): ScreenSessions {
  /** This node's connections that are open now (marked every minute). */
  const open = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  let touches = 0;

  async function touch(): Promise<void> {
    const em = orm.em.fork();
    if (open.size > 0) {
      await em.execute(
        `update screen_sessions set last_seen_at = ?::timestamptz where ended_at is null and socket_id in (select jsonb_array_elements_text(?::jsonb))`,
        [iso(Date.now()), JSON.stringify([...open])],
        'run',
      );
    }
    if (++touches % PRUNE_EVERY_TOUCHES === 0) await prune(em, Date.now());
  }

  function startTouching(): void {
    if (timer) return;
    timer = setInterval(() => {
      touch().catch((err: unknown) => options.logger?.debug({ err }, 'screen connections not marked'));
    }, options.touchEveryMs ?? TOUCH_EVERY_MS);
    timer.unref();
  }

  return {
    async opened(screen, at) {
      open.add(screen.id);
      startTouching();
      const key = screenKey(screen);
      // A connection that now shows something else is another screen: its old row ends here.
      await orm.em.fork().execute(
        `with ended as (
            update screen_sessions set ended_at = ?::timestamptz, last_seen_at = ?::timestamptz
            where socket_id = ? and ended_at is null and screen_key <> ?),
          touched as (
            update screen_sessions set last_seen_at = ?::timestamptz
            where socket_id = ? and ended_at is null and screen_key = ? returning id)
        insert into screen_sessions (screen_key, socket_id, node, started_at, last_seen_at)
          select ?, ?, ?, ?::timestamptz, ?::timestamptz where not exists (select 1 from touched)`,
        [iso(at), iso(at), screen.id, key, iso(at), screen.id, key, key, screen.id, screen.node, iso(at), iso(at)],
        'run',
      );
    },
    async closed(screen, at) {
      open.delete(screen.id);
      await orm.em.fork().execute(
        `update screen_sessions set ended_at = ?::timestamptz, last_seen_at = ?::timestamptz where socket_id = ? and ended_at is null`,
        [iso(at), iso(at), screen.id],
        'run',
      );
    },
    close() {
      clearInterval(timer);
      timer = undefined;
    },
  };
}

/**
 * Drops connections that ended before the longest window, but for each screen's first (it tells
 * since when the screen is known); a screen not seen for that long is forgotten altogether.
 */
export async function prune(em: EntityManager, now: number): Promise<void> {
  await em.execute(
    `delete from screen_sessions s
      where coalesce(s.ended_at, s.last_seen_at) < ?::timestamptz
        and (not exists (select 1 from screen_sessions n where n.screen_key = s.screen_key and coalesce(n.ended_at, n.last_seen_at) >= ?::timestamptz)
          or s.id <> (select f.id from screen_sessions f where f.screen_key = s.screen_key order by f.started_at, f.id limit 1))`,
    [iso(now - KEEP_MS), iso(now - KEEP_MS)],
    'run',
  );
}

// ---- reading ----------------------------------------------------------------------------------

interface SessionRow {
  socket_id: string;
  started: number | null;
  ended: number | null;
  last_seen: number | null;
  known_since: number;
}

/** When a connection ended, as far as uptime goes (null: open now); an open row of a dead node ended when last marked. */
function endOf(row: { ended: number | null; last_seen: number | null }, now: number): number | null {
  if (row.ended !== null) return row.ended;
  const seen = row.last_seen ?? now;
  return now - seen > STALE_AFTER_MS ? seen : null;
}

function figures(rows: readonly SessionRow[], hours: number, now: number): UptimeFigures {
  const from = now - hours * HOUR_MS;
  const knownSince = rows[0]?.known_since ?? now;
  const intervals: UpInterval[] = rows.filter((r) => r.started !== null).map((r) => ({ start: r.started!, end: endOf(r, now) }));
  // Known (and offline) between connections since its first one; unknown before it.
  return uptimeOver({ from, to: now, before: knownSince < from ? false : null, transitions: intervalTransitions(intervals) });
}

const ms = (column: string) => `(extract(epoch from ${column}) * 1000)::float8`;

/**
 * The connections of the screens behind these connection ids that touch [from, now), with since
 * when each screen is known: one query for any number of screens.
 */
async function sessionsOf(em: EntityManager, socketIds: readonly string[], from: number, now: number): Promise<Map<string, SessionRow[]>> {
  const rows = await em.execute<SessionRow[]>(
    `with k as (
        select distinct on (socket_id) socket_id, screen_key from screen_sessions
        where socket_id in (select jsonb_array_elements_text(?::jsonb))
        order by socket_id, started_at desc)
      select k.socket_id, ${ms('s.started_at')} as started, ${ms('s.ended_at')} as ended, ${ms('s.last_seen_at')} as last_seen, ${ms('f.known_since')} as known_since
      from k
      cross join lateral (select min(started_at) as known_since from screen_sessions where screen_key = k.screen_key) f
      left join screen_sessions s on s.screen_key = k.screen_key and s.started_at < ?::timestamptz and (s.ended_at is null or s.ended_at > ?::timestamptz)`,
    [JSON.stringify(socketIds), iso(now), iso(from)],
    'all',
  );
  const bySocket = new Map<string, SessionRow[]>();
  for (const row of rows) bySocket.set(row.socket_id, [...(bySocket.get(row.socket_id) ?? []), row]);
  return bySocket;
}

/** A screen's uptime over the last day and week, by one of its connection ids (its current or last one); null for a connection never recorded. */
export async function screenUptime(em: EntityManager, socketId: string, now = Date.now()): Promise<UptimeDto | null> {
  const rows = (await sessionsOf(em, [socketId], now - UPTIME_WINDOWS.week * HOUR_MS, now)).get(socketId);
  if (!rows) return null;
  return {
    day: { ...figures(rows, UPTIME_WINDOWS.day, now), from: iso(now - UPTIME_WINDOWS.day * HOUR_MS), to: iso(now) },
    week: { ...figures(rows, UPTIME_WINDOWS.week, now), from: iso(now - UPTIME_WINDOWS.week * HOUR_MS), to: iso(now) },
  };
}

/** The share of the last 24 hours each of these screens (by connection id) was online; absent: never recorded. */
export async function dayShares(em: EntityManager, socketIds: readonly string[], now = Date.now()): Promise<Map<string, number | null>> {
  if (socketIds.length === 0) return new Map();
  const sessions = await sessionsOf(em, socketIds, now - UPTIME_WINDOWS.day * HOUR_MS, now);
  return new Map([...sessions].map(([id, rows]) => [id, figures(rows, UPTIME_WINDOWS.day, now).share]));
}
