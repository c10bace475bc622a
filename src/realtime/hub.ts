/**
 * The central scene controller: one Socket.IO server on the app's HTTP server.
 *
 * - Screens register (`screen:register`) and get their full state in the answer; they join the
 *   room of what they follow. A reconnect registers again, so it always shows the truth.
 * - `publisher.publish(changes)` runs after a command commits: it takes a cluster-wide version,
 *   works out which scenes the changes touch, tells the other nodes, and each node pushes fresh
 *   state to its own screens. Only this file emits screen state.
 * - Presence lives in `socket.data`; admins get `screens:updated`, and `screens()` lists every
 *   node's screens through the adapter.
 */
import type http from 'node:http';
import { randomBytes } from 'node:crypto';
import { RateLimiterMemory } from 'rate-limiter-flexible';
import { Server, type Socket } from 'socket.io';
import { z } from 'zod';
import {
  HealthReport,
  Registration,
  type Ack,
  type ClientToServerEvents,
  type KioskState,
  type PlaybackState,
  type ScreenPresence,
  type ScreenState,
  type ServerToClientEvents,
  type WallState,
} from '../shared/events.ts';
import { isAllowedOrigin } from '../http/origin.ts';
import { isDatabaseUnavailable, type DatabaseAvailability } from '../database/availability.ts';
import type { Logger } from '../logger.ts';
import type { AdapterSetup } from './adapter.ts';
import type { ChangePublisher, DomainChange } from './changes.ts';
import { KIND_ROOMS, parseTargetRoom, sessionRoom, targetOf, targetRoom, type Target } from './rooms.ts';
import type { ResolvedScene, SceneDirectory } from './scene-directory.ts';

/** What one node tells the others after a commit. */
const ChangeNotice = z.object({
  version: z.number().int().nonnegative(),
  sceneIds: z.array(z.number().int()),
  defaultChanged: z.boolean(),
  streams: z.object({
    created: z.array(z.number().int()),
    updated: z.array(z.number().int()),
    deleted: z.array(z.number().int()),
  }),
});
type ChangeNotice = z.infer<typeof ChangeNotice>;

/** A node's answer to a presence request: its own screens. */
const PresenceAnswer = z.object({ requestId: z.string(), node: z.string(), screens: z.array(z.unknown()) });
type PresenceAnswer = { requestId: string; node: string; screens: ScreenPresence[] };

interface InterServerEvents {
  'nw:changes': (notice: ChangeNotice) => void;
  'nw:presence-request': (request: { requestId: string }) => void;
  'nw:presence-answer': (answer: PresenceAnswer) => void;
}

/** Presence kept per socket, compact (it is multiplied by every idle screen). */
interface Presence {
  kind: ScreenPresence['kind'];
  name: string | null;
  follows: string | null;
  sceneId: number | null;
  position: number | null;
  connectedAt: number;
  heartbeatAt: number;
  health: Record<string, PlaybackState> | null;
  node: string;
}

interface SocketData {
  presence?: Presence;
  /** Set for admin sockets that authenticated with a session cookie. */
  sessionHash?: string;
}

type HubServer = Server<ClientToServerEvents, ServerToClientEvents, InterServerEvents, SocketData>;
type HubSocket = Socket<ClientToServerEvents, ServerToClientEvents, InterServerEvents, SocketData>;

export interface HubOptions {
  server: http.Server;
  directory: SceneDirectory;
  logger: Logger;
  adapter?: AdapterSetup;
  /** Origins besides the server's own that may open a socket (ALLOWED_ORIGINS). */
  allowedOrigins?: readonly string[];
  /**
   * Access policy for a registration, from the handshake (cookie, Authorization header or
   * `auth.token`). Checked on every registration and again when a connection is recovered.
   */
  authorize?: (registration: Registration, handshake: HubSocket['handshake']) => Promise<Authorization>;
  presenceDebounceMs?: number;
  /** Database outages: registrations that need it are refused with a retry hint, and screens resync after. */
  availability?: DatabaseAvailability;
  /** How long a cluster-wide screen list waits for other nodes before answering with what it has. */
  presenceTimeoutMs?: number;
}

export interface ScreenList {
  screens: ScreenPresence[];
  partial: boolean;
}

/** What a screen is told when its registration needs the database and the database is away. */
const UNAVAILABLE = { error: 'Database unavailable, try again shortly', retryAfterMs: 3_000 } as const;

export type Authorization = { ok: true; sessionHash?: string | undefined } | { ok: false; error: string };

export interface Hub {
  io: HubServer;
  /** Disconnects every socket (on every node) that authenticated with this session. */
  disconnectSession(sessionHash: string): Promise<void>;
  /** Hand this to runCommand: it pushes every committed change to every screen. */
  publisher: ChangePublisher;
  /** Every connected, registered screen on every node; `partial` when a node did not answer in time. */
  screens(): Promise<ScreenList>;
  /** Push every screen on this node its current state again (after an outage). */
  resync(): Promise<void>;
  close(): Promise<void>;
}

const MAX_MESSAGE_BYTES = 16 * 1024;

export async function createHub(options: HubOptions): Promise<Hub> {
  const { directory, logger } = options;
  const log = logger.child({ component: 'hub' });
  const node = randomBytes(4).toString('hex');
  const allowed = options.allowedOrigins ?? [];

  const io: HubServer = new Server(options.server, {
    serveClient: false,
    maxHttpBufferSize: MAX_MESSAGE_BYTES,
    ...(options.adapter ? { adapter: options.adapter.factory } : {}),
    ...(options.adapter?.supportsRecovery ? { connectionStateRecovery: { maxDisconnectionDuration: 120_000 } } : {}),
    // Browsers always send Origin; a cross-site page must not open a socket as our screens.
    allowRequest: (req, callback) => {
      const origin = req.headers.origin;
      callback(null, origin === undefined || isAllowedOrigin(origin, req.headers.host, allowed));
    },
  });

  /** Highest version this node has applied: snapshots are labelled with it (read before state). */
  let appliedVersion = await directory.currentVersion();
  /** Last scene id each followed reference resolved to on this node (null: unresolved). */
  const resolvedRefs = new Map<string, number | null>();
  const refKey = (ref: string | null) => ref ?? '';

  // ---- screen state ---------------------------------------------------------------------

  function wallState(version: number, ref: string | null, resolved: ResolvedScene | null): WallState {
    return {
      kind: 'wall',
      version,
      follows: ref,
      scene: resolved?.scene ?? null,
      streams: resolved?.streams ?? [],
      problem: resolved ? null : ref === null ? 'no-default-scene' : 'scene-not-found',
    };
  }

  function kioskState(version: number, ref: string | null, position: number, resolved: ResolvedScene | null): KioskState {
    const stream = resolved?.streams.find((s) => s.position === position) ?? null;
    return {
      kind: 'kiosk',
      version,
      follows: ref,
      position,
      scene: resolved?.scene ?? null,
      stream,
      problem: !resolved ? (ref === null ? 'no-default-scene' : 'scene-not-found') : stream ? null : 'no-stream-at-position',
    };
  }

  async function stateFor(registration: Registration): Promise<ScreenState> {
    const version = appliedVersion; // read before the state: a push with a higher version may follow
    const target = targetOf(registration);
    if (!target) return { kind: registration.kind as 'admin' | 'rater', version };
    const resolved = await directory.resolve(target.ref);
    resolvedRefs.set(refKey(target.ref), resolved?.scene.id ?? null);
    return target.kind === 'wall' ? wallState(version, target.ref, resolved) : kioskState(version, target.ref, target.position, resolved);
  }

  /** The followed targets that have screens on this node, grouped by reference. */
  function localTargets(): Map<string | null, Target[]> {
    const byRef = new Map<string | null, Target[]>();
    for (const [room, members] of io.of('/').adapter.rooms) {
      if (members.size === 0) continue;
      const target = parseTargetRoom(room);
      if (!target) continue;
      const list = byRef.get(target.ref) ?? [];
      list.push(target);
      byRef.set(target.ref, list);
    }
    return byRef;
  }

  async function applyNotice(notice: ChangeNotice): Promise<void> {
    directory.invalidate();
    appliedVersion = Math.max(appliedVersion, notice.version);
    const { version } = notice;
    const touched = new Set(notice.sceneIds);
    const local = io.local;

    for (const [ref, targets] of localTargets()) {
      const before = resolvedRefs.get(refKey(ref));
      const relevant =
        before === undefined || before === null || touched.has(before) || (ref === null && notice.defaultChanged);
      if (!relevant) continue;
      const resolved = await directory.resolve(ref, { fresh: true });
      resolvedRefs.set(refKey(ref), resolved?.scene.id ?? null);
      for (const target of targets) {
        const room = targetRoom(target);
        for (const id of io.of('/').adapter.rooms.get(room) ?? []) {
          const presence = io.of('/').sockets.get(id)?.data.presence;
          if (presence) presence.sceneId = resolved?.scene.id ?? null;
        }
        if (target.kind === 'kiosk') {
          local.to(room).emit('kiosk:stream', kioskState(version, ref, target.position, resolved));
        } else if (resolved) {
          const payload = { version, scene: resolved.scene, streams: resolved.streams };
          if (ref === null && notice.defaultChanged) local.to(room).emit('scene:default-changed', payload);
          else local.to(room).emit('scene:updated', payload);
        } else if (typeof before === 'number') {
          local.to(room).emit('scene:deleted', { version, scene_id: before });
        } else {
          local.to(room).emit('screen:state', wallState(version, ref, null));
        }
      }
    }

    // Admin consoles keep their lists in step.
    if ((io.of('/').adapter.rooms.get(KIND_ROOMS.admin)?.size ?? 0) > 0) {
      const admins = local.to(KIND_ROOMS.admin);
      const changed = [...notice.streams.created, ...notice.streams.updated];
      const streams = new Map((await directory.streams(changed)).map((s) => [s.id, s]));
      for (const id of notice.streams.created) {
        const stream = streams.get(id);
        if (stream) admins.emit('stream:created', { version, stream });
      }
      for (const id of notice.streams.updated) {
        const stream = streams.get(id);
        if (stream) admins.emit('stream:updated', { version, stream });
      }
      for (const id of notice.streams.deleted) admins.emit('stream:deleted', { version, stream_id: id });
      for (const id of notice.sceneIds) {
        const resolved = await directory.resolveId(id, { fresh: true });
        if (resolved) admins.emit('scene:updated', { version, ...resolved });
        else admins.emit('scene:deleted', { version, scene_id: id });
      }
      if (notice.defaultChanged) {
        const resolved = await directory.resolve(null, { fresh: true });
        if (resolved) admins.emit('scene:default-changed', { version, ...resolved });
      }
    }
  }

  // One notice at a time on each node, in arrival order.
  let queue: Promise<void> = Promise.resolve();
  const enqueue = (notice: ChangeNotice) => {
    queue = queue.then(() => applyNotice(notice)).catch((err: unknown) => log.error({ err, version: notice.version }, 'push failed'));
    return queue;
  };

  io.on('nw:changes', (notice) => {
    const parsed = ChangeNotice.safeParse(notice);
    if (parsed.success) void enqueue(parsed.data);
    else log.warn('ignored a malformed change notice from another node');
  });

  const publisher: ChangePublisher = {
    async publish(changes: readonly DomainChange[]) {
      directory.invalidate(); // before the write's answer goes out: read-your-writes on this node
      const started = performance.now();
      try {
        const [version, affected] = await Promise.all([directory.nextVersion(), directory.affected(changes)]);
        const ids = (type: DomainChange['type']) =>
          changes.flatMap((c) => (c.type === type && 'streamId' in c ? [c.streamId] : []));
        const notice: ChangeNotice = {
          version,
          ...affected,
          streams: { created: ids('stream.created'), updated: ids('stream.updated'), deleted: ids('stream.deleted') },
        };
        io.serverSideEmit('nw:changes', notice);
        const versioned = performance.now();
        await enqueue(notice);
        log.debug({ version, ms: Math.round((performance.now() - started) * 10) / 10, versionMs: Math.round((versioned - started) * 10) / 10 }, 'published');
      } catch (err) {
        // The write is committed; screens catch up on the resync that follows the database's return.
        if (options.availability?.noteFailure(err)) log.warn('could not publish changes: the database is away; screens resync when it is back');
        else log.error({ err }, 'could not publish changes');
      }
    },
  };

  /**
   * Every screen on this node gets its current state again, under a new version: after an
   * outage (or a lost cluster link) a change may have been committed whose push never came.
   * Coalesced: several triggers at once make one resync.
   */
  let resyncing: Promise<void> | undefined;
  function resync(): Promise<void> {
    return (resyncing ??= (async () => {
      await new Promise((resolve) => setTimeout(resolve, 50)); // let simultaneous triggers meet
      resyncing = undefined;
      directory.invalidate();
      const version = await directory.nextVersion();
      appliedVersion = Math.max(appliedVersion, version);
      const local = io.local;
      for (const [ref, targets] of localTargets()) {
        const resolved = await directory.resolve(ref, { fresh: true });
        resolvedRefs.set(refKey(ref), resolved?.scene.id ?? null);
        for (const target of targets) {
          const room = targetRoom(target);
          if (target.kind === 'kiosk') local.to(room).emit('kiosk:stream', kioskState(version, ref, target.position, resolved));
          else local.to(room).emit('screen:state', wallState(version, ref, resolved));
        }
      }
      log.info({ version }, 'screens resynced');
    })().catch((err: unknown) => {
      resyncing = undefined;
      if (!options.availability?.noteFailure(err)) log.error({ err }, 'resync failed');
    }));
  }
  options.availability?.onRecovered(() => void resync());
  options.adapter?.onReconnected?.(() => void resync());

  // ---- presence -------------------------------------------------------------------------

  let presenceTimer: NodeJS.Timeout | undefined;
  const presenceDebounceMs = options.presenceDebounceMs ?? 1000;

  function localScreens(): ScreenPresence[] {
    const list: ScreenPresence[] = [];
    for (const [id, { data: { presence: p } }] of io.of('/').sockets) {
      if (!p) continue;
      list.push({
        id,
        kind: p.kind,
        name: p.name,
        follows: p.follows,
        scene_id: p.sceneId,
        position: p.position,
        connected_at: new Date(p.connectedAt).toISOString(),
        last_heartbeat: new Date(p.heartbeatAt).toISOString(),
        health: p.health ?? {},
        node: p.node,
      });
    }
    return list;
  }

  /**
   * Cluster-wide list: ask every node, answer when all have answered or after the timeout with
   * what arrived. (The adapter's fetchSockets waits 5 s and then fails outright, and a crashed
   * node stays "known" for 10 s: one lost node would make the list fail for that long.)
   */
  const presenceRequests = new Map<string, (answer: PresenceAnswer) => void>();
  const presenceTimeoutMs = options.presenceTimeoutMs ?? 1_000;

  async function screens(): Promise<ScreenList> {
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
        }, presenceTimeoutMs);
        presenceRequests.set(requestId, (answer) => {
          if (answered.has(answer.node)) return;
          answered.add(answer.node);
          all.push(...answer.screens);
          if (answered.size >= expected) {
            clearTimeout(timer);
            resolve();
          }
        });
        io.serverSideEmit('nw:presence-request', { requestId });
      });
      presenceRequests.delete(requestId);
    }
    return { screens: all.sort((a, b) => a.connected_at.localeCompare(b.connected_at)), partial };
  }

  io.on('nw:presence-request', (request) => {
    if (typeof request?.requestId !== 'string') return;
    io.serverSideEmit('nw:presence-answer', { requestId: request.requestId, node, screens: localScreens() });
  });
  io.on('nw:presence-answer', (answer) => {
    const parsed = PresenceAnswer.safeParse(answer);
    if (parsed.success) presenceRequests.get(parsed.data.requestId)?.(answer);
  });

  function presenceChanged(): void {
    if (presenceTimer) return;
    presenceTimer = setTimeout(async () => {
      presenceTimer = undefined;
      try {
        // Every node's admins hear it; the list comes from every node that answers in time.
        io.to(KIND_ROOMS.admin).emit('screens:updated', (await screens()).screens);
      } catch (err) {
        log.warn({ err }, 'could not push presence');
      }
    }, presenceDebounceMs);
    presenceTimer.unref();
  }

  // ---- sockets --------------------------------------------------------------------------

  const limiter = new RateLimiterMemory({ points: 30, duration: 10 });

  function reply<T>(ack: unknown, result: Ack<T>): void {
    if (typeof ack === 'function') (ack as (r: Ack<T>) => void)(result);
  }

  /** Per-socket message budget; over it, the message is answered with an error and dropped. */
  async function withinBudget(socket: HubSocket, ack: unknown): Promise<boolean> {
    try {
      await limiter.consume(socket.id);
      return true;
    } catch {
      reply(ack, { error: 'Too many messages; slow down' });
      return false;
    }
  }

  // Handlers are shared by every socket (`this` is the socket): no closures per idle screen.
  function onRegister(this: HubSocket, raw: unknown, ack: unknown): Promise<void> {
    return register(this, raw, ack);
  }

  async function register(socket: HubSocket, raw: unknown, ack: unknown): Promise<void> {
    if (!(await withinBudget(socket, ack))) return;
    try {
      const parsed = Registration.safeParse(raw);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        return reply(ack, { error: `Invalid registration: ${issue ? `${issue.path.join('.') || 'registration'}: ${issue.message}` : 'unknown'}` });
      }
      const registration = parsed.data;
      const verdict = options.authorize ? await options.authorize(registration, socket.handshake) : { ok: true as const };
      if (!verdict.ok) return reply(ack, { error: verdict.error });
      if (verdict.sessionHash) socket.data.sessionHash = verdict.sessionHash;

      for (const room of socket.rooms) if (room !== socket.id) await socket.leave(room);
      const target = targetOf(registration);
      const rooms = [KIND_ROOMS[registration.kind]];
      if (target) rooms.push(targetRoom(target));
      if (verdict.sessionHash) rooms.push(sessionRoom(verdict.sessionHash));
      await socket.join(rooms);

      const now = Date.now();
      const presence: Presence = {
        kind: registration.kind,
        name: registration.name ?? null,
        follows: target?.ref ?? null,
        sceneId: null,
        position: target?.kind === 'kiosk' ? target.position : null,
        connectedAt: socket.data.presence?.connectedAt ?? now,
        heartbeatAt: now,
        health: null,
        node,
      };
      socket.data.presence = presence;
      const state = await stateFor(registration);
      if (state.kind === 'wall' || state.kind === 'kiosk') presence.sceneId = state.scene?.id ?? null;
      presenceChanged();
      reply(ack, { data: state });
    } catch (err) {
      if (options.availability ? options.availability.noteFailure(err) : isDatabaseUnavailable(err)) return reply(ack, UNAVAILABLE);
      log.error({ err }, 'screen:register failed');
      reply(ack, { error: 'Registration failed; try again' });
    }
  }

  async function onHealth(this: HubSocket, raw: unknown, ack: unknown): Promise<void> {
    if (!(await withinBudget(this, ack))) return;
    const parsed = HealthReport.safeParse(raw);
    if (!parsed.success) return reply(ack, { error: 'Invalid health report' });
    const presence = this.data.presence;
    if (!presence) return reply(ack, { error: 'Register first' });
    const health: Record<string, PlaybackState> = {};
    for (const entry of parsed.data.streams) health[String(entry.stream_id)] = entry.state;
    const changed = JSON.stringify(health) !== JSON.stringify(presence.health ?? {});
    presence.health = health;
    presence.heartbeatAt = Date.now(); // screens report in periodically: that is their heartbeat
    if (changed) presenceChanged();
    reply(ack, { data: { ok: true } });
  }

  function onDisconnect(this: HubSocket): void {
    if (this.data.presence) presenceChanged();
  }

  io.on('connection', (socket: HubSocket) => {
    // Socket.IO's memory guide: drop the engine's reference to the upgrade request;
    // socket.handshake keeps the headers we need.
    (socket.conn as { request: unknown }).request = null;
    socket.on('screen:register', onRegister);
    socket.on('screen:health', onHealth);
    socket.on('disconnect', onDisconnect);
    // A recovered connection comes back with its rooms and no registration: check it again.
    if (socket.recovered && socket.data.presence && options.authorize) {
      void options.authorize({ kind: socket.data.presence.kind } as Registration, socket.handshake).then((verdict) => {
        if (!verdict.ok) socket.disconnect(true);
      });
    }
  });

  io.of('/').adapter.on('delete-room', (room: string) => {
    const target = parseTargetRoom(room);
    if (target && !localTargets().has(target.ref)) resolvedRefs.delete(refKey(target.ref));
  });

  return {
    io,
    publisher,
    screens,
    resync,
    async disconnectSession(sessionHash) {
      // A broadcast to the session's room: no cluster round trip to wait for.
      io.in(sessionRoom(sessionHash)).disconnectSockets(true);
    },
    async close() {
      if (presenceTimer) clearTimeout(presenceTimer);
      await new Promise<void>((resolve) => {
        io.close(() => resolve());
      });
      await options.adapter?.close();
    },
  };
}
