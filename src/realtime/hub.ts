/**
 * The hub: one Socket.IO server on the app's HTTP server that carries messages and decides
 * nothing about them, made of
 * - io-server.ts: the server, its limits, the adapter and the origin check;
 * - registration.ts: what sockets may say (register, clock, declared reports), validated and rate-limited;
 * - fanout.ts: publish after commit, the cluster notice, the version, feature pushes;
 * - presence.ts: who is connected, cluster-wide, pushed to admins.
 * What walls and kiosks show is a feature (`screens`, screen-feature.ts: the programme module's);
 * other features plug in through `features` (pushes.ts) and `reports` (reports.ts). No feature
 * edits this folder, and it imports none (a dependency rule in `npm run check`).
 */
import type http from 'node:http';
import { ServerResponse, type IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { randomBytes } from 'node:crypto';
import type { DatabaseAvailability } from '../database/availability.ts';
import type { ChangePublisher } from '../domain/changes.ts';
import type { Logger } from '../logger.ts';
import type { ScreenCommandName } from '../shared/api/screens.ts';
import type { Registration, ScreenState } from '../shared/events.ts';
import type { AdapterSetup } from './adapter.ts';
import { createFanout } from './fanout.ts';
import { createIoServer, type HubServer } from './io-server.ts';
import { createPresence, type PresenceJournal, type ScreenList } from './presence.ts';
import type { FeaturePushes } from './pushes.ts';
import { handleSockets, type Authorize } from './registration.ts';
import type { Admit } from './admission.ts';
import { emptyReports, reportTable, type FeatureReports } from './reports.ts';
import { accountRoom, KIND_ROOMS, sessionRoom } from './rooms.ts';
import type { ScreenFeatureFactory } from './screen-feature.ts';
import { DRAIN_PACE, paceMoves, paceMs } from './moves.ts';
import { DEFAULT_SHARE_RULE, destinations, watchShares, type ShareRule } from './shares.ts';
import type { PushVersions } from './versions.ts';

export type { Authorization } from './registration.ts';
export type { PresenceJournal, ScreenList } from './presence.ts';

export interface HubOptions {
  server: http.Server;
  /** What walls and kiosks show (screen-feature.ts), made with what the hub lends it. */
  screens: ScreenFeatureFactory;
  versions: PushVersions;
  logger: Logger;
  /** Each feature's pushes (stream edits to admins, …), run after every commit. */
  features?: readonly FeaturePushes[];
  adapter?: AdapterSetup;
  /** Origins besides the server's own that may open a socket (ALLOWED_ORIGINS). */
  allowedOrigins?: readonly string[];
  /**
   * Access policy for a registration, from the handshake (cookie, Authorization header or
   * `auth.token`). Checked on every registration and again when a connection is recovered.
   */
  authorize?: Authorize;
  /** Which browsers are screens (the screens module's enrolment); without it every wall and kiosk is one. */
  admit?: Admit;
  presenceDebounceMs?: number;
  /** Database outages: registrations that need it are refused with a retry hint, and screens resync after. */
  availability?: DatabaseAvailability;
  /** How long a cluster-wide screen list waits for other nodes before answering with what it has. */
  presenceTimeoutMs?: number;
  /** Remembers screens beyond their connection (offline ones stay listed as "last seen"). */
  presenceJournal?: PresenceJournal;
  /** What features declare and hear of screens' reports (playback, clock, proof of play…), see reports.ts. */
  reports?: readonly FeatureReports[];
  /** The id of the web build this node serves (dist/web/build.json): screens on another one reload. */
  build?: string | undefined;
  /** The name the load balancer knows this node by: each Socket.IO session gets a cookie naming it (io-server.ts). */
  nodeName?: string | undefined;
  /** When a node holding more than its share of a cluster's screens asks some to move (shares.ts); with an adapter only. */
  shares?: Partial<ShareRule> | undefined;
}

export interface Hub {
  io: HubServer;
  /** Disconnects every socket (on every node) that authenticated with this session. */
  disconnectSession(sessionHash: string): Promise<void>;
  /** Ends every socket in this room on every node (a revoked screen: it reconnects and is refused). */
  dismiss(room: string): void;
  /** An account's role or state changed: its open consoles (every node) ask who they are again. */
  notifyAccount(accountId: number): void;
  /** Hand this to runCommand: it pushes every committed change to every screen. */
  publisher: ChangePublisher;
  /** What a screen registering this way is answered with (a screen page's HTML carries it, src/http/web-hints.ts). */
  stateFor(registration: Registration): Promise<ScreenState>;
  /** This node's registered sockets by kind, screen group and node (the metrics' gauge). */
  census(): { labels: { kind: string; group: string; node: string }; value: number }[];
  /** Every connected, registered screen on every node; `partial` when a node did not answer in time. */
  screens(options?: { includeOffline?: boolean }): Promise<ScreenList>;
  /** Tells one screen (a connection id, on any node) or every wall and kiosk to reload or identify itself. */
  command(command: ScreenCommandName, id?: string): void;
  /** Push every screen on this node its current state again (after an outage). */
  resync(): Promise<void>;
  /** Resolves when every change received so far has been pushed to this node's sockets, and every recovered connection's access re-checked. */
  idle(): Promise<void>;
  /**
   * Stops taking screens (the node is shutting down): new handshakes are answered 503, which a
   * load balancer passes to another node, and every socket here is told to move, a few at a time
   * (moves.ts; src/shared/screen-client.ts: each connects
   * elsewhere before it lets go of this node). Answers with the least time that takes (at most
   * `maxSpreadMs`), whether other nodes are known to take them (`elsewhere`), and `gone`: when no
   * socket is left on this node.
   */
  drain(maxSpreadMs: number): { spreadMs: number; elsewhere: boolean; gone: Promise<void> };
  close(): Promise<void>;
}

export async function createHub(options: HubOptions): Promise<Hub> {
  const { logger } = options;
  const log = logger.child({ component: 'hub' });
  const node = randomBytes(4).toString('hex');

  const io = createIoServer(options.server, { adapter: options.adapter, allowedOrigins: options.allowedOrigins ?? [], nodeName: options.nodeName });
  const reports = reportTable(options.reports ?? []);
  const localAdmins = () => io.of('/').adapter.rooms.get(KIND_ROOMS.admin)?.size ?? 0;
  // Shares are heard through the adapter; a lone node (no adapter: tests) has none to even out.
  // Before presence: it asks them whether a console elsewhere hears its pushes.
  const server = options.server;
  const shares = options.adapter
    ? watchShares(io, { node, name: options.nodeName ?? null }, { ...DEFAULT_SHARE_RULE, ...options.shares }, () => server.listening, log, localAdmins)
    : undefined;
  const presence = createPresence(io, {
    node,
    emptyReports: emptyReports(reports),
    logger: log,
    debounceMs: options.presenceDebounceMs,
    timeoutMs: options.presenceTimeoutMs,
    journal: options.presenceJournal,
    // Pushed only where someone hears it: a console here, or on another node (its share report says so).
    heard: () => localAdmins() > 0 || (shares?.adminsElsewhere() ?? false),
    onAdmin: () => shares?.tell(),
  });
  // The fan-out hands each notice to the screen feature, which the fan-out's version labels.
  let appliedVersion = () => 0;
  let markApplied = (_version: number) => {};
  const screens = options.screens({
    io,
    appliedVersion: () => appliedVersion(),
    pushing: (version) => markApplied(version),
    shown(socket, shows, announce = true) {
      // Admins see each screen's scene, group and rule as the feature decides them.
      const p = socket.data.presence;
      if (!p) return;
      Object.assign(p.shows, shows);
      if (announce) presence.seen(socket.id, p);
    },
  });
  const fanout = createFanout({
    io,
    versions: options.versions,
    initialVersion: await options.versions.current(),
    screens,
    features: options.features ?? [],
    logger,
    availability: options.availability,
    forget: options.admit?.changed?.bind(options.admit),
  });
  appliedVersion = fanout.appliedVersion;
  markApplied = fanout.markApplied;
  /** A drain's screens being told to move, a few at a time. */
  let pacing: { stop(): void } | undefined;
  if (shares) {
    if (server.listening) shares.listening();
    else server.once('listening', () => shares.listening());
  }
  const sockets = handleSockets({ io, node, screens, appliedVersion: fanout.appliedVersion, presence, logger: log, authorize: options.authorize, admit: options.admit, availability: options.availability, reports, build: options.build });

  // The resyncs the hub starts itself query the database after a short wait, outside the
  // fan-out queue that idle() drains: closing starts none and waits for one under way, since a
  // query that races the ORM's close can leave its pool waiting for a connection forever.
  let closing = false;
  let resyncing: Promise<void> = Promise.resolve();
  const resyncAfterBreak = () => {
    if (!closing) resyncing = fanout.resync();
  };
  options.availability?.onRecovered(resyncAfterBreak);
  options.adapter?.onReconnected?.(resyncAfterBreak);

  return {
    io,
    publisher: fanout.publisher,
    screens: presence.screens,
    census() {
      const counts = new Map<string, { labels: { kind: string; group: string; node: string }; value: number }>();
      for (const socket of io.of('/').sockets.values()) {
        const p = socket.data.presence;
        if (!p?.counted) continue;
        const labels = { kind: p.kind, group: p.shows.group_id === null ? '' : String(p.shows.group_id), node };
        const key = `${labels.kind}|${labels.group}`;
        const entry = counts.get(key) ?? { labels, value: 0 };
        entry.value++;
        counts.set(key, entry);
      }
      return [...counts.values()];
    },
    async stateFor(registration) {
      if (registration.kind === 'wall' || registration.kind === 'kiosk') return screens.stateFor(registration);
      return { kind: registration.kind, version: fanout.appliedVersion() };
    },
    resync: fanout.resync,
    idle: async () => {
      await Promise.all([fanout.idle(), sockets.accessChecked()]);
    },
    command(command, id) {
      // Socket ids are rooms of their own on every node: the adapter carries it to the right one.
      io.to(id ?? [KIND_ROOMS.wall, KIND_ROOMS.kiosk]).emit('screen:command', { command });
    },
    notifyAccount(accountId) {
      io.to(accountRoom(accountId)).emit('account:changed', {});
    },
    dismiss(room) {
      io.in(room).disconnectSockets(true);
    },
    async disconnectSession(sessionHash) {
      // A broadcast to the session's room: no cluster round trip to wait for.
      io.in(sessionRoom(sessionHash)).disconnectSockets(true);
    },
    drain(maxSpreadMs) {
      io.engine.use(refuseNewSessions(io));
      const sockets = io.of('/');
      const held = [...sockets.sockets.values()];
      // Each screen is sent to a named node, spread over the others by what each lacks (shares.ts),
      // a few at a time (moves.ts).
      const others = shares?.others() ?? [];
      const to = destinations(held.length, others);
      shares?.leave();
      const { jitterMs } = DRAIN_PACE;
      pacing = paceMoves(held, (socket, i) => socket.emit('server:draining', { reconnectWithinMs: jitterMs, ...(to[i] ? { to: to[i] } : {}) }), DRAIN_PACE);
      const spreadMs = Math.min(maxSpreadMs, Math.max(1_000, paceMs(held.length, DRAIN_PACE)));
      const notice = { reconnectWithinMs: jitterMs };
      const gone = new Promise<void>((resolve) => {
        const empty = () => sockets.sockets.size === 0 && resolve();
        for (const socket of sockets.sockets.values()) socket.once('disconnect', empty);
        // One that got past the handshake just before: told as well.
        sockets.on('connection', (socket) => {
          socket.emit('server:draining', notice);
          socket.once('disconnect', empty);
        });
        empty();
      });
      return { spreadMs, elsewhere: others.length > 0, gone };
    },
    async close() {
      closing = true;
      shares?.close();
      pacing?.stop();
      await new Promise<void>((resolve) => {
        io.close(() => resolve());
      });
      await presence.close(); // the screens' last sightings are written before the pools close
      await resyncing;
      await fanout.idle();
      await options.adapter?.close();
    },
  };
}

/**
 * While draining: every Engine.IO request that would start a session here — a handshake, or a
 * request for a session this node does not hold (a load balancer's stickiness pointing at the
 * wrong node) — is answered 503, so a proxy tries the next node (nginx: `proxy_next_upstream
 * http_503`, deploy/nginx/nature-wall.conf) and a direct client retries with backoff. Sessions
 * still held here carry on until their screen leaves.
 */
function refuseNewSessions(io: HubServer) {
  // Engine.IO keeps its sessions in a protected map; it is the only way to know ours.
  const sessions = (io.engine as unknown as { clients: Record<string, unknown> }).clients;
  return (req: IncomingMessage, res: ServerResponse | { socket: Duplex }, next: (err?: unknown) => void) => {
    const sid = new URL(req.url ?? '/', 'http://node').searchParams.get('sid');
    if (sid && Object.hasOwn(sessions, sid)) return next();
    if (res instanceof ServerResponse) {
      res.writeHead(503, { 'content-type': 'application/json', connection: 'close', 'retry-after': '1' });
      res.end(JSON.stringify({ error: 'This node is shutting down; connect to another one' }));
    } else {
      // A WebSocket upgrade: there is no response object, only the socket.
      res.socket.end('HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\nRetry-After: 1\r\nContent-Length: 0\r\n\r\n');
    }
  };
}
