/**
 * What a socket may say: `screen:register` (join the rooms of what it follows, answered with
 * its full state) and `screen:health` (playback health, which is also its heartbeat). Every
 * message is validated and counted against a per-socket budget. The handlers are shared by
 * every socket (`this` is the socket): no closures per idle screen.
 */
import { isDatabaseUnavailable, type DatabaseAvailability } from '../database/availability.ts';
import type { Logger } from '../logger.ts';
import { ClockQuestion, HealthReport, PlayReport, Registration, type Ack, type ClockReport, type PlaybackState } from '../shared/events.ts';
import { serverNow } from './clock.ts';
import type { HubServer, HubSocket } from './io-server.ts';
import { messageBudget } from './message-budget.ts';
import type { Presence, PresenceTracker } from './presence.ts';
import type { FeatureReports, ScreenReport } from './reports.ts';
import { accountRoom, KIND_ROOMS, sessionRoom } from './rooms.ts';
import type { ScreenFeature } from './screen-feature.ts';

/**
 * Whether a clock report is news for the admins' list: the first one, or one that moved by more
 * than 10 ms (each refresh moves it by a fraction; pushing every one would be noise).
 */
function clockChanged(before: ClockReport | null, after: ClockReport | undefined): boolean {
  if (!after) return false;
  if (!before) return true;
  return Math.abs(after.offset_ms - before.offset_ms) > 10 || Math.abs(after.error_ms - before.error_ms) > 10;
}

export type Authorization = { ok: true; sessionHash?: string | undefined; accountId?: number | undefined } | { ok: false; error: string };
export type Authorize = (registration: Registration, handshake: HubSocket['handshake']) => Promise<Authorization>;

/** What a screen is told when its registration needs the database and the database is away. */
const UNAVAILABLE = { error: 'Database unavailable, try again shortly', retryAfterMs: 3_000 } as const;

export function handleSockets(options: {
  io: HubServer;
  node: string;
  /** What walls and kiosks show (the programme module's). */
  screens: ScreenFeature;
  /** The version registrations of consoles and raters are labelled with. */
  appliedVersion: () => number;
  presence: PresenceTracker;
  logger: Logger;
  authorize?: Authorize | undefined;
  availability?: DatabaseAvailability | undefined;
  /** The features that hear screens' reports (reports.ts). */
  reports?: readonly FeatureReports[] | undefined;
  /** The id of the web build this node serves, told with every registration's answer. */
  build?: string | undefined;
}): { accessChecked(): Promise<void> } {
  const { io, node, screens, presence, logger: log, authorize, availability } = options;
  /** Access re-checks of recovered connections under way (hub.idle() waits for them). */
  const checks = new Set<Promise<void>>();
  const reports = options.reports ?? [];

  function deliver(report: ScreenReport): void {
    for (const feature of reports) {
      try {
        feature.onReport?.(report);
      } catch (err) {
        log.error({ err, feature: feature.name }, 'a feature failed on a screen report');
      }
    }
  }
  const budget = messageBudget(30, 10_000);
  // Clock samples have a budget of their own: a burst at every (re)connect and every refresh.
  const clockBudget = messageBudget(40, 10_000);

  function reply<T>(ack: unknown, result: Ack<T>): void {
    if (typeof ack === 'function') (ack as (r: Ack<T>) => void)(result);
  }

  /** Per-socket message budget; over it, the message is answered with an error and dropped. */
  function withinBudget(socket: HubSocket, ack: unknown): boolean {
    if (budget.take(socket.id)) return true;
    reply(ack, { error: 'Too many messages; slow down' });
    return false;
  }

  async function register(socket: HubSocket, raw: unknown, ack: unknown): Promise<void> {
    if (!withinBudget(socket, ack)) return;
    try {
      const parsed = Registration.safeParse(raw);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        return reply(ack, { error: `Invalid registration: ${issue ? `${issue.path.join('.') || 'registration'}: ${issue.message}` : 'unknown'}` });
      }
      const registration = parsed.data;
      const verdict = authorize ? await authorize(registration, socket.handshake) : { ok: true as const };
      if (!verdict.ok) return reply(ack, { error: verdict.error });

      for (const room of socket.rooms) if (room !== socket.id) await socket.leave(room);
      const rooms = [KIND_ROOMS[registration.kind]];
      if (verdict.sessionHash) rooms.push(sessionRoom(verdict.sessionHash));
      if (verdict.accountId !== undefined) rooms.push(accountRoom(verdict.accountId));
      await socket.join(rooms);

      const now = Date.now();
      const p: Presence = {
        kind: registration.kind,
        device: registration.device ?? null,
        name: registration.name ?? null,
        shows: { follows: null, scene_id: null, group_id: null, rule: null, position: null },
        connectedAt: socket.data.presence?.connectedAt ?? now,
        heartbeatAt: now,
        health: null,
        clock: socket.data.presence?.clock ?? null,
        flip: socket.data.presence?.flip ?? null,
        offlineStart: socket.data.presence?.offlineStart ?? null,
        node,
      };
      socket.data.presence = p;
      // What a wall or kiosk shows is the screen feature's to decide (it joins the rooms of it
      // and tells presence); a console or a rater follows nothing.
      const version = options.appliedVersion(); // read before the state: a push with a higher version may follow
      const state = registration.kind === 'wall' || registration.kind === 'kiosk' ? await screens.register(socket, registration) : { kind: registration.kind, version };
      presence.seen(socket.id, p);
      reply(ack, { data: options.build ? { ...state, build: options.build } : state });
    } catch (err) {
      if (availability ? availability.noteFailure(err) : isDatabaseUnavailable(err)) return reply(ack, UNAVAILABLE);
      log.error({ err }, 'screen:register failed');
      reply(ack, { error: 'Registration failed; try again' });
    }
  }

  function onRegister(this: HubSocket, raw: unknown, ack: unknown): Promise<void> {
    return register(this, raw, ack);
  }

  function onHealth(this: HubSocket, raw: unknown, ack: unknown): void {
    if (!withinBudget(this, ack)) return;
    const parsed = HealthReport.safeParse(raw);
    if (!parsed.success) return reply(ack, { error: 'Invalid health report' });
    const p = this.data.presence;
    if (!p) return reply(ack, { error: 'Register first' });
    const health: Record<string, PlaybackState> = {};
    for (const entry of parsed.data.streams) health[String(entry.stream_id)] = entry.state;
    const changed = JSON.stringify(health) !== JSON.stringify(p.health ?? {});
    if (changed && reports.length > 0) {
      const changes = Object.entries(health)
        .filter(([id, state]) => p.health?.[id] !== state)
        .map(([id, state]) => ({ streamId: Number(id), state, previous: p.health?.[id] ?? null }));
      if (changes.length > 0) deliver({ kind: 'playback', screen: { id: this.id, kind: p.kind, device: p.device, sceneId: p.shows.scene_id }, changes });
    }
    p.health = health;
    const clockMoved = clockChanged(p.clock, parsed.data.clock);
    if (parsed.data.clock) p.clock = parsed.data.clock;
    const flipped = parsed.data.flip !== undefined && JSON.stringify(parsed.data.flip) !== JSON.stringify(p.flip);
    if (parsed.data.flip) p.flip = parsed.data.flip;
    const offlineMoved = parsed.data.offline_start !== undefined && parsed.data.offline_start !== p.offlineStart;
    if (parsed.data.offline_start) p.offlineStart = parsed.data.offline_start;
    p.heartbeatAt = Date.now(); // screens report in periodically: that is their heartbeat
    if (changed || clockMoved || flipped || offlineMoved) presence.seen(this.id, p);
    reply(ack, { data: { ok: true } });
  }

  /** Proof of play: validated here, kept by the feature that keeps it, answered when kept. */
  function onPlays(this: HubSocket, raw: unknown, ack: unknown): void {
    if (!withinBudget(this, ack)) return;
    const parsed = PlayReport.safeParse(raw);
    if (!parsed.success) return reply(ack, { error: 'Invalid proof-of-play report' });
    const p = this.data.presence;
    if (!p) return reply(ack, { error: 'Register first' });
    if ((p.kind !== 'wall' && p.kind !== 'kiosk') || !p.device) return reply(ack, { error: 'Proof of play is for walls and kiosks with a device id' });
    // A kiosk mid-registration does not know its position yet: its records wait for the next send.
    if (p.kind === 'kiosk' && p.shows.position === null) return reply(ack, { error: 'Registering; send it again shortly' });
    const keeper = reports.find((f) => f.onPlays);
    if (!keeper?.onPlays) return reply(ack, { error: 'Proof of play is not kept by this server' });
    // One browser may run a wall and kiosks side by side: each counts as a screen of its own.
    const position = p.kind === 'kiosk' ? p.shows.position : null;
    const screen = { id: this.id, kind: p.kind, device: position === null ? p.device : `${p.device}#kiosk-${position}`, sceneId: p.shows.scene_id, name: p.name, position };
    keeper.onPlays({ screen, records: parsed.data.records }).then(
      (answer) => reply(ack, { data: answer }),
      (err: unknown) => {
        if (availability ? availability.noteFailure(err) : isDatabaseUnavailable(err)) return reply(ack, UNAVAILABLE);
        log.error({ err }, 'proof of play could not be kept');
        reply(ack, { error: 'Proof of play could not be kept; send it again later' });
      },
    );
  }

  /** One clock sample: the server's time, read as late as possible (just before the answer). */
  function onClock(this: HubSocket, raw: unknown, ack: unknown): void {
    if (!clockBudget.take(this.id)) return reply(ack, { error: 'Too many clock questions; slow down' });
    if (!ClockQuestion.safeParse(raw).success) return reply(ack, { error: 'Invalid clock question: send {}' });
    reply(ack, { data: { now: serverNow() } });
  }

  function onDisconnect(this: HubSocket): void {
    if (this.data.presence) presence.gone(this.id, this.data.presence);
  }

  io.on('connection', (socket: HubSocket) => {
    // Socket.IO's memory guide: drop the engine's reference to the upgrade request;
    // socket.handshake keeps the headers we need.
    (socket.conn as { request: unknown }).request = null;
    socket.on('screen:register', onRegister);
    socket.on('screen:health', onHealth);
    socket.on('screen:plays', onPlays);
    socket.on('clock:sync', onClock);
    socket.on('disconnect', onDisconnect);
    // A recovered connection comes back with its rooms and no registration: check it again.
    if (socket.recovered && socket.data.presence && authorize) {
      const check = authorize({ kind: socket.data.presence.kind } as Registration, socket.handshake)
        .then((verdict) => void (verdict.ok || socket.disconnect(true)))
        .catch((err: unknown) => log.warn({ err }, 'could not re-check a recovered connection'))
        .finally(() => checks.delete(check));
      checks.add(check);
    }
  });
  return { accessChecked: async () => void (await Promise.all([...checks])) };
}
