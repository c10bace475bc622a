/**
 * The hub's presence journal (realtime/presence.ts): one row per screen, updated when it
 * registers, reports a change or leaves; rows older than a day are dropped as they are read.
 * Each connection is also recorded from registering to leaving (screen-sessions.ts): its uptime.
 */
import type { Orm } from '../../db.ts';
import { screenKey, type PresenceJournal } from '../../realtime/presence.ts';
import type { PlaybackState, ScreenKind, ScreenPresence } from '../../shared/events.ts';
import { ScreenSighting } from './screen-sighting.entity.ts';
import { SHOWN_RULES } from '../../shared/schedules/rules.ts';
import type { Logger } from '../../logger.ts';
import { screenSessions } from './screen-sessions.ts';

export const SIGHTING_TTL_HOURS = 24;

async function upsert(orm: Orm, screen: ScreenPresence, online: boolean): Promise<void> {
  await orm.em.fork().upsert(ScreenSighting, {
    key: screenKey(screen),
    socketId: screen.id,
    device: screen.device,
    kind: screen.kind,
    name: screen.name,
    follows: screen.follows,
    sceneId: screen.scene_id,
    groupId: screen.group_id,
    rule: screen.rule,
    position: screen.position,
    node: screen.node,
    health: screen.health,
    connectedAt: new Date(screen.connected_at),
    lastSeenAt: new Date(),
    online,
  });
}

function present(row: ScreenSighting): ScreenPresence {
  return {
    id: row.socketId,
    device: row.device ?? null,
    online: row.online,
    kind: row.kind as ScreenKind,
    name: row.name ?? null,
    enrolled_id: null, // what it is approved as is told while it is connected
    follows: row.follows ?? null,
    scene_id: row.sceneId ?? null,
    group_id: row.groupId ?? null,
    rule: SHOWN_RULES.find((r) => r === row.rule) ?? null,
    position: row.position ?? null,
    connected_at: row.connectedAt.toISOString(),
    last_heartbeat: row.lastSeenAt.toISOString(),
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
      const cutoff = new Date(Date.now() - SIGHTING_TTL_HOURS * 3_600_000);
      await em.nativeDelete(ScreenSighting, { lastSeenAt: { $lt: cutoff } });
      return (await em.find(ScreenSighting, {}, { orderBy: { lastSeenAt: 'desc' } })).map(present);
    },
  };
}
