/**
 * The hub's presence journal (realtime/presence.ts): one row per screen, updated when it
 * registers, reports a change or leaves; rows older than a day are never read, and dropped by a
 * read at most once a minute.
 * Each connection is also recorded from registering to leaving (screen-sessions.ts): its uptime.
 */
import type { Orm } from '../../db.ts';
import { screenKey, type PresenceJournal } from '../../realtime/presence.ts';
import type { PlaybackState, ScreenKind, ScreenPresence } from '../../shared/events.ts';
import { SHOWN_RULES } from '../../shared/schedules/rules.ts';
import type { Logger } from '../../logger.ts';
import { screenSessions } from './screen-sessions.ts';

export const SIGHTING_TTL_HOURS = 24;

/** How often the read drops the sightings older than SIGHTING_TTL_HOURS (not on every read: it runs once a push). */
const EXPIRE_EVERY_MS = 60_000;

/**
 * Plain SQL, not the ORM's entities: these run for every screen that comes, reports or leaves,
 * and the read once a presence push (every second while screens move) — through
 * the ORM, a roll of 3,000 screens spent a fifth of each node's time building and collecting
 * ScreenSighting entities (bench:cluster, a CPU profile of a node).
 */
async function upsert(orm: Orm, screen: ScreenPresence, online: boolean): Promise<void> {
  await orm.em.fork().execute(
    `insert into screen_sightings (key, socket_id, device, kind, name, follows, scene_id, group_id, rule, position, node, health, connected_at, last_seen_at, online)
       values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?::jsonb, ?::timestamptz, now(), ?)
     on conflict (key) do update set socket_id = excluded.socket_id, device = excluded.device, kind = excluded.kind, name = excluded.name,
       follows = excluded.follows, scene_id = excluded.scene_id, group_id = excluded.group_id, rule = excluded.rule, position = excluded.position,
       node = excluded.node, health = excluded.health, connected_at = excluded.connected_at, last_seen_at = excluded.last_seen_at, online = excluded.online`,
    [
      screenKey(screen),
      screen.id,
      screen.device ?? null,
      screen.kind,
      screen.name ?? null,
      screen.follows ?? null,
      screen.scene_id ?? null,
      screen.group_id ?? null,
      screen.rule ?? null,
      screen.position ?? null,
      screen.node,
      JSON.stringify(screen.health ?? {}),
      screen.connected_at,
      online,
    ],
    'run',
  );
}

/** A timestamp column as the live list writes it (`toISOString()`: UTC, milliseconds). */
const iso = (column: string) => `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as ${column}`;

/** A row as read (plain SQL: timestamps as ISO strings). */
interface SightingRow {
  socket_id: string;
  device: string | null;
  kind: string;
  name: string | null;
  follows: string | null;
  scene_id: number | null;
  group_id: number | null;
  rule: string | null;
  position: number | null;
  node: string;
  health: Record<string, string>;
  connected_at: string;
  last_seen_at: string;
  online: boolean;
}

function present(row: SightingRow): ScreenPresence {
  return {
    id: row.socket_id,
    device: row.device,
    online: row.online,
    kind: row.kind as ScreenKind,
    name: row.name,
    enrolled_id: null, // what it is approved as is told while it is connected
    follows: row.follows,
    scene_id: row.scene_id,
    group_id: row.group_id,
    rule: SHOWN_RULES.find((r) => r === row.rule) ?? null,
    position: row.position,
    connected_at: row.connected_at,
    last_heartbeat: row.last_seen_at,
    health: row.health as Record<string, PlaybackState>,
    clock: null, // a screen that is not connected has no clock to speak of
    flip: null,
    offline_start: null, // reported while connected; the journal keeps where it was, not how it started
    dropped_frames: null,
    node: row.node,
  };
}

/** Runs both writes, and fails (after both are done) if either did. */
async function both(a: Promise<void>, b: Promise<void>): Promise<void> {
  const failed = (await Promise.allSettled([a, b])).find((r) => r.status === 'rejected');
  if (failed) throw failed.reason;
}

export function screenJournal(orm: Orm, options: { logger?: Logger } = {}): PresenceJournal {
  const sessions = screenSessions(orm, { logger: options.logger });
  // One connection's writes in the order they happened: a quick arrival and departure must not
  // be written departure first (the screen would stay "online" for good).
  const queues = new Map<string, Promise<void>>();
  let expiredAt = 0;
  function inOrder(id: string, write: () => Promise<void>): Promise<void> {
    const next = (queues.get(id) ?? Promise.resolve()).then(write);
    const settled = next.catch(() => undefined);
    queues.set(id, settled);
    void settled.then(() => queues.get(id) === settled && queues.delete(id));
    return next;
  }
  return {
    seen(screen) {
      const at = Date.now();
      return inOrder(screen.id, () => both(upsert(orm, screen, true), sessions.opened(screen, at)));
    },
    gone(screen) {
      const at = Date.now();
      return inOrder(screen.id, () => both(upsert(orm, screen, false), sessions.closed(screen, at)));
    },
    close: () => sessions.close(),
    async recent() {
      const em = orm.em.fork();
      if (Date.now() - expiredAt >= EXPIRE_EVERY_MS) {
        expiredAt = Date.now();
        await em.execute(`delete from screen_sightings where last_seen_at < now() - make_interval(hours => ?)`, [SIGHTING_TTL_HOURS], 'run');
      }
      const rows = await em.execute<SightingRow[]>(
        `select socket_id, device, kind, name, follows, scene_id, group_id, rule, position, node, health, ${iso('connected_at')}, ${iso('last_seen_at')}, online
           from screen_sightings where last_seen_at >= now() - make_interval(hours => ?) order by last_seen_at desc`,
        [SIGHTING_TTL_HOURS],
        'all',
      );
      return rows.map(present);
    },
  };
}
