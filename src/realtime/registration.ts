/**
 * What a socket may say: `screen:register` (join the rooms of what it follows, answered with
 * its full state), `clock:sync` (the server's time), and every report a feature declares
 * (reports.ts: `screen:<name>`, validated against its declaration, checked for who sent it, kept
 * and handed to its owner and listeners). Every message is counted against a per-socket budget;
 * any report accepted is a heartbeat. The handlers are shared by every socket (`this` is the socket): no
 * closures per idle screen.
 */
import { isDatabaseUnavailable, type DatabaseAvailability } from '../database/availability.ts';
import type { Logger } from '../logger.ts';
import { ClockQuestion, Registration, type Ack } from '../shared/events.ts';
import { reportEvent } from '../shared/reports.ts';
import { serverNow } from './clock.ts';
import type { HubServer, HubSocket } from './io-server.ts';
import { messageBudget } from './message-budget.ts';
import type { Presence, PresenceTracker } from './presence.ts';
import type { AnyReportDeclaration, AnyReportListener, ReportingScreen, ReportTable } from './reports.ts';
import { accountRoom, KIND_ROOMS, sessionRoom } from './rooms.ts';
import type { ScreenFeature } from './screen-feature.ts';
import { ADMIT_ALL, type Admit } from './admission.ts';

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
  /** Which browsers are screens (the screens module's enrolment); without it, every wall and kiosk is. */
  admit?: Admit | undefined;
  availability?: DatabaseAvailability | undefined;
  /** The reports features declare and hear (reports.ts). */
  reports: ReportTable;
  /** The id of the web build this node serves, told with every registration's answer. */
  build?: string | undefined;
}): { accessChecked(): Promise<void> } {
  const { io, node, screens, presence, logger: log, authorize, availability } = options;
  const admit = options.admit ?? ADMIT_ALL;
  /** Access re-checks of recovered connections under way (hub.idle() waits for them). */
  const checks = new Set<Promise<void>>();
  const table = options.reports;
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
      const verdict = authorize ? await authorize(parsed.data, socket.handshake) : { ok: true as const };
      if (!verdict.ok) return reply(ack, { error: verdict.error });
      const asked = parsed.data;
      const admission = asked.kind === 'wall' || asked.kind === 'kiosk' ? await admit(asked, socket.handshake) : null;
      if (admission?.as === 'refused' || admission?.as === 'waiting') forget(socket);
      if (admission?.as === 'refused') {
        for (const room of socket.rooms) if (room !== socket.id) await socket.leave(room);
        return reply(ack, { error: admission.error, refused: 'credential' });
      }
      const registration = admission?.as === 'screen' ? admission.registration : parsed.data;

      for (const room of socket.rooms) if (room !== socket.id) await socket.leave(room);
      if (admission?.as === 'waiting') {
        // Waiting for approval: its code and its rooms (to hear it was approved), nothing else.
        await socket.join([...admission.rooms]);
        return reply(ack, { data: { ...admission.state, version: options.appliedVersion() } });
      }
      const rooms = [KIND_ROOMS[registration.kind], ...(admission?.as === 'screen' ? admission.rooms : [])];
      if (verdict.sessionHash) rooms.push(sessionRoom(verdict.sessionHash));
      if (verdict.accountId !== undefined) rooms.push(accountRoom(verdict.accountId));
      await socket.join(rooms);

      const now = Date.now();
      const before = socket.data.presence;
      const p: Presence = {
        kind: registration.kind,
        device: registration.device ?? null,
        name: registration.name ?? null,
        shows: { follows: null, scene_id: null, group_id: null, rule: null, position: null },
        connectedAt: before?.connectedAt ?? now,
        heartbeatAt: now,
        reported: keptAcrossRegistration(before?.reported),
        node,
        counted: admission?.as === 'screen' ? admission.counted : true,
        enrolled: admission?.as === 'screen' ? admission.enrolled : null,
      };
      // A screen that is no longer counted (revoked, now a public viewer) leaves the list.
      if (before?.counted && !p.counted) presence.gone(socket.id, before);
      socket.data.presence = p;
      // What a wall or kiosk shows is the screen feature's to decide (it joins the rooms of it
      // and tells presence); a console or a rater follows nothing.
      const version = options.appliedVersion(); // read before the state: a push with a higher version may follow
      const state = registration.kind === 'wall' || registration.kind === 'kiosk' ? await screens.register(socket, registration) : { kind: registration.kind, version };
      const extra = admission?.as === 'screen' ? admission.answer : undefined;
      presence.seen(socket.id, p);
      reply(ack, { data: { ...state, ...(options.build ? { build: options.build } : {}), ...extra } });
      return;
    } catch (err) {
      if (availability ? availability.noteFailure(err) : isDatabaseUnavailable(err)) return reply(ack, UNAVAILABLE);
      log.error({ err }, 'screen:register failed');
      reply(ack, { error: 'Registration failed; try again' });
    }
  }

  /** A socket that was a screen and is not one now (its credential revoked, waiting again) leaves the list. */
  function forget(socket: HubSocket): void {
    if (socket.data.presence) presence.gone(socket.id, socket.data.presence);
    socket.data.presence = undefined;
    socket.data.screen = undefined;
  }

  /** What a re-registration keeps of what the screen reported: all but what depends on what it registered for. */
  function keptAcrossRegistration(reported: Record<string, unknown> | undefined): Record<string, unknown> {
    const kept: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(reported ?? {})) if (!table.get(name)?.declaration.keep?.perRegistration) kept[name] = value;
    return kept;
  }

  function onRegister(this: HubSocket, raw: unknown, ack: unknown): Promise<void> {
    return register(this, raw, ack);
  }

  /** The handler of one declared report, shared by every socket. */
  function reportHandler(declaration: AnyReportDeclaration, listeners: readonly AnyReportListener[]) {
    const { name, keep } = declaration;
    return function onReport(this: HubSocket, raw: unknown, ack: unknown): void {
      if (!withinBudget(this, ack)) return;
      const parsed = declaration.schema.safeParse(raw);
      if (!parsed.success) return reply(ack, { error: `Invalid ${declaration.title} report` });
      const p = this.data.presence;
      if (!p) return reply(ack, { error: 'Register first' });
      if (!declaration.from.includes(p.kind)) return reply(ack, { error: `A ${p.kind} does not send ${declaration.title} reports` });
      const screen: ReportingScreen = { id: this.id, kind: p.kind, device: p.device, name: p.name, shows: p.shows, counted: p.counted, kept: (n) => (p.reported[n] ?? null) as never };
      const refused = declaration.refuse?.(screen);
      if (refused) return reply(ack, { error: refused });
      p.heartbeatAt = Date.now();
      const before = keep ? (p.reported[name] ?? null) : null;
      if (keep) {
        const after = keep.value(parsed.data);
        p.reported[name] = after;
        if (keep.changed ? keep.changed(before, after) : JSON.stringify(before) !== JSON.stringify(after)) presence.seen(this.id, p);
      }
      for (const listener of listeners) {
        try {
          listener.hear(parsed.data, screen, before);
        } catch (err) {
          log.error({ err, report: name }, 'a feature failed on a screen report');
        }
      }
      let answer: unknown;
      try {
        answer = declaration.receive?.(parsed.data, screen);
      } catch (err) {
        answer = Promise.reject(err);
      }
      if (!(answer instanceof Promise)) return reply(ack, { data: answer ?? { ok: true } });
      answer.then(
        (data: unknown) => reply(ack, { data: data ?? { ok: true } }),
        (err: unknown) => {
          if (availability ? availability.noteFailure(err) : isDatabaseUnavailable(err)) return reply(ack, UNAVAILABLE);
          log.error({ err, report: name }, 'a screen report could not be taken');
          reply(ack, { error: declaration.failure ?? `The ${declaration.title} report could not be taken; send it again later` });
        },
      );
    };
  }
  const reportHandlers = [...table.values()].map(({ declaration, listeners }) => [reportEvent(declaration.name), reportHandler(declaration, listeners)] as const);
  const declared = new Set<string>(reportHandlers.map(([event]) => event));

  /** A report nobody declares is answered, not left hanging (a screen of another build, a typo). */
  function onUnknown(this: HubSocket, event: unknown, ...args: unknown[]): void {
    if (typeof event !== 'string' || declared.has(event) || !event.startsWith('screen:') || event === 'screen:register') return;
    const ack = args.at(-1);
    if (withinBudget(this, ack)) reply(ack, { error: `This server takes no ${event.slice('screen:'.length)} reports` });
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
    for (const [event, handler] of reportHandlers) socket.on(event as 'screen:register', handler);
    socket.onAny(onUnknown);
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
