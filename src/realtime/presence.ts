/**
 * Presence: who is connected where, kept in each socket's `data` (compact: it is multiplied by
 * every idle screen), listed cluster-wide on request, and pushed to admins (debounced) when it
 * changes.
 */
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { Logger } from '../logger.ts';
import type { ScreenPresence } from '../shared/events.ts';
import type { HubServer, Presence, PresenceAnswer } from './io-server.ts';

export type { Presence } from './io-server.ts';
import { pushesSent } from '../metrics.ts';
import { KIND_ROOMS } from './rooms.ts';


export interface ScreenList {
  screens: ScreenPresence[];
  /** True when a node did not answer in time: the list holds the nodes that did. */
  partial: boolean;
}

/**
 * Where presence is remembered beyond the connection (a table, handed in by app.ts), so an
 * operator still sees a screen that went offline, with when it was last seen.
 */
export interface PresenceJournal {
  /** A screen registered or reported a change. */
  seen(screen: ScreenPresence): Promise<void>;
  /** A screen disconnected. */
  gone(screen: ScreenPresence): Promise<void>;
  /** Screens seen recently (the journal decides how long), newest first. */
  recent(): Promise<ScreenPresence[]>;
  /** Stops its own timers, if it has any (called once the sockets are gone and its writes done). */
  close?(): void;
}

export interface PresenceTracker {
  /** Every registered screen on every node that answers within the timeout; with `includeOffline`, recently seen ones too. */
  screens(options?: { includeOffline?: boolean }): Promise<ScreenList>;
  /** This socket registered or reported a change. */
  seen(id: string, presence: Presence): void;
  /** This socket left. */
  gone(id: string, presence: Presence): void;
  /** Stops pushing and waits for journal writes under way (call after the sockets are gone). */
  close(): Promise<void>;
}

/**
 * One screen across reconnects and reloads: this browser (its device id) showing this target.
 * Two tabs of one browser on different routes are two screens; without a device id, the
 * connection is the screen.
 */
export function screenKey(screen: Pick<ScreenPresence, 'id' | 'device' | 'kind' | 'follows' | 'position'>): string {
  return screen.device ? `${screen.device}:${screen.kind}:${screen.follows ?? '@default'}:${screen.position ?? ''}` : screen.id;
}

const PresenceAnswerShape = z.object({ requestId: z.string(), node: z.string(), screens: z.array(z.unknown()) });

/** A screen as admins see it: who it is, what it shows, and what it last said of itself (each kept report, `empty` until it reports). */
function present(id: string, p: Presence, empty: Readonly<Record<string, unknown>>): ScreenPresence {
  return {
    id,
    device: p.device,
    online: true,
    kind: p.kind,
    name: p.name,
    enrolled_id: p.enrolled,
    ...p.shows,
    connected_at: new Date(p.connectedAt).toISOString(),
    last_heartbeat: new Date(p.heartbeatAt).toISOString(),
    ...empty,
    ...p.reported,
    node: p.node,
  } as ScreenPresence;
}

export function createPresence(
  io: HubServer,
  options: {
    node: string;
    logger: Logger;
    debounceMs?: number | undefined;
    timeoutMs?: number | undefined;
    journal?: PresenceJournal | undefined;
    /** What each kept report says of a screen that has not made it yet (reports.ts), by report name. */
    emptyReports?: Readonly<Record<string, unknown>> | undefined;
    /**
     * Whether an admin console anywhere would hear a push (default: always). The list a push
     * carries asks every node for its screens and reads the journal; with nobody to hear it, a roll
     * of 3,000 screens spent much of each node's time building lists for no one (bench:cluster).
     */
    heard?: (() => boolean) | undefined;
    /** An admin console registered here (the other nodes are told, so their pushes reach it). */
    onAdmin?: (() => void) | undefined;
  },
): PresenceTracker {
  const { node, logger: log } = options;
  const empty = options.emptyReports ?? {};
  const timeoutMs = options.timeoutMs ?? 1_000;
  const debounceMs = options.debounceMs ?? 1_000;

  function localScreens(): ScreenPresence[] {
    const list: ScreenPresence[] = [];
    // A public viewer (approval on, no credential) counts as no screen.
    for (const [id, socket] of io.of('/').sockets) if (socket.data.presence?.counted) list.push(present(id, socket.data.presence, empty));
    return list;
  }

  /**
   * Asks every node and answers when all have, or after the timeout with what arrived. (The
   * adapter's fetchSockets waits 5 s and then fails outright, and a crashed node stays "known"
   * for 10 s: one lost node would make the list fail for that long.)
   */
  const pending = new Map<string, (answer: PresenceAnswer) => void>();

  async function screens(list: { includeOffline?: boolean } = {}): Promise<ScreenList> {
    const [live, offline] = await Promise.all([clusterScreens(), list.includeOffline && options.journal ? options.journal.recent() : []]);
    const online = new Set(live.screens.map(screenKey));
    const away = offline.filter((s) => !online.has(screenKey(s))).map((s) => ({ ...s, online: false }));
    return { screens: [...live.screens, ...away], partial: live.partial };
  }

  async function clusterScreens(): Promise<ScreenList> {
    const all = localScreens();
    const expected = (await io.of('/').adapter.serverCount()) - 1;
    let partial = false;
    if (expected > 0) {
      const requestId = randomBytes(8).toString('hex');
      const answered = new Set<string>();
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          partial = true;
          resolve();
        }, timeoutMs);
        pending.set(requestId, (answer) => {
          if (answered.has(answer.node)) return;
          answered.add(answer.node);
          all.push(...answer.screens);
          if (answered.size < expected) return;
          clearTimeout(timer);
          resolve();
        });
        io.serverSideEmit('nw:presence-request', { requestId });
      });
      pending.delete(requestId);
    }
    return { screens: all.sort((a, b) => a.connected_at.localeCompare(b.connected_at)), partial };
  }

  io.on('nw:presence-request', (request) => {
    if (typeof request?.requestId !== 'string') return;
    io.serverSideEmit('nw:presence-answer', { requestId: request.requestId, node, screens: localScreens() });
  });
  io.on('nw:presence-answer', (answer) => {
    if (PresenceAnswerShape.safeParse(answer).success) pending.get(answer.requestId)?.(answer);
  });

  /** Journal writes and presence pushes under way: closing waits for them (the ORM must not close under a query). */
  const writing = new Set<Promise<void>>();
  const record = (what: 'seen' | 'gone', id: string, p: Presence) => {
    // Only screens are remembered once gone: an admin tab that closed is not an outage.
    if (!options.journal || (p.kind !== 'wall' && p.kind !== 'kiosk')) return;
    const write = options.journal[what](present(id, p, empty)).catch((err: unknown) => log.debug({ err }, 'presence not journaled'));
    writing.add(write);
    void write.finally(() => writing.delete(write));
  };

  let closed = false;
  let timer: NodeJS.Timeout | undefined;
  function changed(): void {
    if (timer || closed) return;
    timer = setTimeout(() => {
      timer = undefined;
      // Nobody to tell. A console that comes loads the list and registers, and its registration is a change.
      if (options.heard && !options.heard()) return;
      // Tracked like a journal write: closing waits for a push under way, whose journal read
      // would otherwise take a connection from a pool that is being closed (and never give it back).
      const pushing = (async () => {
        try {
          // Every node's admins hear it; the list comes from every node that answers in time.
          io.to(KIND_ROOMS.admin).emit('screens:updated', (await screens({ includeOffline: true })).screens);
          pushesSent.inc({ event: 'screens:updated' });
        } catch (err) {
          log.warn({ err }, 'could not push presence');
        }
      })();
      writing.add(pushing);
      void pushing.finally(() => writing.delete(pushing));
    }, debounceMs);
    timer.unref();
  }

  return {
    screens,
    seen(id, p) {
      if (!p.counted) return;
      if (p.kind === 'admin') options.onAdmin?.();
      record('seen', id, p);
      changed();
    },
    gone(id, p) {
      if (!p.counted) return;
      record('gone', id, p);
      changed();
    },
    async close() {
      closed = true;
      clearTimeout(timer);
      await Promise.all(writing);
      options.journal?.close?.();
    },
  };
}
