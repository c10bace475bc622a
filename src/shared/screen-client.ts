/**
 * A screen's connection to the scene controller, for the browser and for Node (benchmarks,
 * tests): connect, register on every (re)connect, keep an estimate of the server's clock, hand
 * every state-bearing message to `onMessage`, and send the reports features declare
 * (src/shared/reports.ts). Folding messages into what is shown (with the version rule) is the
 * caller's job — see applyScreenMessage and the web store.
 */
import { io, type ManagerOptions, type Socket, type SocketOptions } from 'socket.io-client';
import { CLOCK_BURST, clockRefreshDelay, clockSettleDelay, combineEstimates, estimateClock, type ClockEstimate, type ClockSample } from './clock.ts';
import type { Ack, ClientToServerEvents, PairingState, Registration, RegistrationAnswer, ServerToClientEvents } from './events.ts';
import { reportEvent, type AnswerOf, type ReportName, type ReportOf } from './reports.ts';
import { MOVED_QUERY, SOCKET_OPTIONS, TO_NODE_QUERY } from './socket-options.ts'; // not events.ts: a screen need not download zod
export { MOVED_QUERY } from './socket-options.ts';
import type { ScreenMessage } from './screen-state.ts';

export type ScreenSocket = Socket<ServerToClientEvents, ClientToServerEvents>;
export type ConnectionStatus = 'connecting' | 'connected' | 'disconnected';

export interface ScreenClientOptions {
  /** Server URL; the page's own origin when omitted (browser). */
  url?: string;
  registration: Registration;
  onMessage: (message: ScreenMessage) => void;
  onStatus?: (status: ConnectionStatus) => void;
  /** A registration was answered (just before its state goes to `onMessage`): the hub knows this screen afresh. */
  onRegistered?: (answer: RegistrationAnswer) => void;
  /** `retrying`: a passing failure (the database is away); the client asks again by itself. */
  onError?: (error: string, retrying: boolean) => void;
  /** A fresh estimate of the server's clock (after each burst of samples: connect, reconnect, refresh). */
  onClock?: (estimate: ClockEstimate) => void;
  /** The id of the web build the server serves, with every registration's answer (when it serves one). */
  onBuild?: (build: string) => void;
  /**
   * Enrolment (src/shared/pairing.ts): the credential this screen holds, read at every
   * registration; the answer that it waits for approval (its code); a credential handed over
   * (a screen known before approval shipped); a credential refused (revoked, expired, unknown).
   */
  credential?: () => string | null;
  onPairing?: (state: PairingState) => void;
  onCredential?: (credential: string) => void;
  onCredentialRefused?: (error: string) => void;
  /** A connection attempt failed (a refused handshake, an unreachable server), with the client's message. */
  onConnectError?: (message: string) => void;
  /** The screen moved to another node, make-before-break: the new connection is answered and in use, the old one let go. */
  onMoved?: () => void;
  socketOptions?: Partial<ManagerOptions & SocketOptions>;
}

export interface ScreenClient {
  /** The connection in use (a screen that moves to another node gets a new one: hear pushes through `listen`). */
  readonly socket: ScreenSocket;
  /** Whether the hub has answered this connection's registration (reports before that are refused). */
  registered(): boolean;
  /**
   * Registers again on the open socket (a safety net): the answer goes through `onMessage` like
   * any; `quiet`: a refusal is not the screen's error (what it shows was answered before).
   */
  register(options?: { quiet?: boolean }): void;
  /** Sends a report, unanswered (it says how the screen is now); nothing goes out before registration. */
  report<K extends ReportName>(name: K, report: ReportOf<K>): void;
  /** Sends a report and resolves with its answer, or with an error when it is refused or not answered within `timeoutMs`. */
  ask<K extends ReportName>(name: K, report: ReportOf<K>, timeoutMs: number): Promise<Ack<AnswerOf<K>>>;
  /** Hears one of the hub's pushes besides the screen's state (an operator's command…); the returned function stops hearing it. */
  listen<E extends keyof ServerToClientEvents>(event: E, handler: ServerToClientEvents[E]): () => void;
  /** The latest estimate of the server's clock, null before the first burst has answered. */
  clock(): ClockEstimate | null;
  close(): void;
}

/** How long one clock sample may take before it is given up (a lost answer must not stall a burst). */
const CLOCK_SAMPLE_TIMEOUT_MS = 2_000;



export function connectScreen(options: ScreenClientOptions): ScreenClient {
  const socketOptions = { ...SOCKET_OPTIONS, ...options.socketOptions } as Partial<ManagerOptions & SocketOptions>;
  const open = (extra?: Partial<ManagerOptions & SocketOptions>): ScreenSocket => {
    const opts = extra ? { ...socketOptions, ...extra, query: { ...(socketOptions.query as object | undefined), ...extra.query } } : socketOptions;
    return options.url ? io(options.url, opts) : io(opts);
  };
  const { onMessage } = options;
  // Only screens flip on the server's clock, and only screens move make-before-break; consoles
  // and raters reconnect (their pages reload what they show on every connect).
  const keepsTime = options.registration.kind === 'wall' || options.registration.kind === 'kiosk';

  /** The connection in use: what reports go out on and whose pushes are shown. */
  let socket: ScreenSocket = open();
  /**
   * A screen moving to another node opens this second connection first and keeps the old one —
   * still showing, still hearing pushes — until this one is registered; its pushes wait in `held`
   * until then. Should the old one drop first, this one simply takes its place.
   */
  let candidate: ScreenSocket | null = null;
  let held: ScreenMessage[] = [];
  /** Handlers `listen` added: they hear the connection in use (a moving screen's new one, once answered). */
  const heard: [string, (...args: never[]) => void][] = [];

  options.onStatus?.('connecting');
  let retry: ReturnType<typeof setTimeout> | undefined;
  let moving: ReturnType<typeof setTimeout> | undefined;

  // The server's clock: a burst of samples, one at a time (never queued behind each other),
  // at every connect, again once the page has settled (clockSettleDelay) and then about every
  // CLOCK_REFRESH_MS (clockRefreshDelay). Bursts on one engine connection narrow each other
  // (combineEstimates); a new connection — maybe another node, with a clock of its own — starts over.
  let estimate: ClockEstimate | null = null;
  let measuredOn: string | undefined;
  let syncing = false;
  /** A burst was asked for while one ran (a reconnect mid-burst): it runs when that one ends. */
  let syncAgain = false;
  const sample = (on: ScreenSocket) =>
    new Promise<ClockSample | null>((resolve) => {
      const sentAt = performance.now();
      on.timeout(CLOCK_SAMPLE_TIMEOUT_MS).emit('clock:sync', {}, (err: Error | null, result: Ack<{ now: number }>) => {
        const receivedAt = performance.now();
        resolve(!err && 'data' in result ? { sentAt, serverTime: result.data.now, receivedAt } : null);
      });
    });
  const syncClock = async (): Promise<void> => {
    if (!keepsTime) return;
    if (syncing) return void (syncAgain = true);
    syncing = true;
    syncAgain = false;
    try {
      // One connection's samples: a move mid-burst ends the burst (the next one measures the new node).
      const on = socket;
      const connection = on.io.engine?.id;
      const samples: ClockSample[] = [];
      for (let i = 0; i < CLOCK_BURST && on.connected && on === socket; i++) {
        const s = await sample(on);
        if (s) samples.push(s);
      }
      const next = estimateClock(samples);
      if (next && on === socket && on.connected && connection !== undefined && on.io.engine?.id === connection) {
        const first = measuredOn !== connection;
        estimate = first ? next : combineEstimates(estimate, next);
        measuredOn = connection;
        options.onClock?.(estimate);
        // A connection's first burst is taken while the screen starts up and reads its answers late.
        if (first) refreshClock(clockSettleDelay(Math.random()));
      }
    } finally {
      syncing = false;
    }
    if (syncAgain && socket.connected) return syncClock();
  };
  let clockRefresh: ReturnType<typeof setTimeout> | undefined;
  let closed = false;
  const refreshClock = (delay = clockRefreshDelay(Math.random())) => {
    clearTimeout(clockRefresh);
    if (closed) return;
    clockRefresh = setTimeout(() => {
      refreshClock();
      if (socket.connected) void syncClock();
    }, delay);
  };
  if (keepsTime) refreshClock();
  let registered = false;
  const registration = (): Registration => {
    const credential = keepsTime ? options.credential?.() : null;
    return credential ? ({ ...options.registration, credential } as Registration) : options.registration;
  };

  /** What a registration's answer does, once it is the answer of the connection in use. */
  const answered = (result: Ack<RegistrationAnswer>, quiet: boolean, on: ScreenSocket) => {
    void syncClock(); // after the state: what to show first comes before when to flip next
    if ('data' in result) {
      const answer = result.data;
      if (answer.kind === 'pairing') {
        registered = false; // a browser waiting for approval reports nothing
        return options.onPairing?.(answer);
      }
      registered = true;
      if (answer.credential) options.onCredential?.(answer.credential);
      if (answer.build) options.onBuild?.(answer.build);
      // Before its state: what the answer says (a new build) applies to the flip that state may make.
      options.onRegistered?.(answer);
      onMessage({ type: 'state', state: answer });
      // Pushes a moving screen's new connection heard before its answer (the version rule drops what the answer already holds).
      for (const message of held.splice(0)) onMessage(message);
      return;
    }
    if (result.refused === 'credential') return options.onCredentialRefused?.(result.error);
    const retrying = result.retryAfterMs !== undefined;
    // A safety-net registration on a working connection that is refused changes nothing shown: the last answer holds.
    if (!quiet) options.onError?.(result.error, retrying);
    // A passing failure (the database is away): ask again while the socket stays open.
    if (retrying) retry = setTimeout(() => on === socket && on.connected && register(), result.retryAfterMs);
  };

  const register = (quiet = false) => {
    clearTimeout(retry);
    const on = socket;
    on.emit('screen:register', registration(), (result) => {
      if (on === socket) answered(result, quiet, on);
    });
  };

  /** The moving screen's new connection registers; answered, it becomes the one in use and the old one goes. */
  const registerCandidate = (next: ScreenSocket) => {
    next.emit('screen:register', registration(), (result) => {
      if (next === socket) {
        // The old one dropped meanwhile and this one took its place: answered, it is connected again.
        options.onStatus?.('connected');
        return answered(result, false, next);
      }
      if (next !== candidate) return; // given up
      if (!('data' in result) || result.data.kind === 'pairing') {
        // Refused here (a passing failure, a changed enrolment): fall back to reconnecting, whose answer is shown like every other.
        giveUpCandidate();
        if (socket.connected) socket.disconnect().connect();
        return;
      }
      const old = socket;
      socket = next;
      candidate = null;
      retire(old);
      answered(result, false, next);
      options.onMoved?.();
    });
  };

  const giveUpCandidate = () => {
    if (!candidate) return;
    retire(candidate);
    candidate = null;
    held = [];
  };

  /** A connection this client no longer uses: it hears nothing more and closes (its node sees it leave). */
  const retire = (old: ScreenSocket) => {
    old.off();
    old.offAny();
    old.io.off();
    old.disconnect();
  };

  /** Starts a move: a second connection (to the node named `to`, else wherever a load balancer sends it), the old one kept until it is answered. */
  const move = (why: 'draining' | 'rebalance', to: string | undefined) => {
    if (!socket.connected || candidate) return;
    if (!keepsTime) {
      socket.disconnect().connect();
      return;
    }
    held = [];
    // Its own engine connection (forceNew): the old one stays open beside it.
    const query: Record<string, string> = { ...(why === 'rebalance' ? MOVED_QUERY : {}), ...(to ? { [TO_NODE_QUERY]: to } : {}) };
    const next = open({ forceNew: true, query });
    candidate = next;
    // The named node refused it (down, draining too): the next attempt goes wherever the balancer sends it.
    if (to) next.once('connect_error', () => delete (next.io.opts.query as Record<string, string>)[TO_NODE_QUERY]);
    wire(next);
  };

  /** Pushes from the connection in use are shown; a moving screen's new connection keeps them until answered. */
  const deliver = (from: ScreenSocket, message: ScreenMessage) => {
    if (from === socket) onMessage(message);
    else if (from === candidate) held.push(message);
  };

  function wire(s: ScreenSocket): void {
    s.on('connect', () => {
      if (s === candidate) return registerCandidate(s);
      if (s !== socket) return;
      options.onStatus?.('connected');
      register();
    });
    s.on('disconnect', (reason) => {
      if (s !== socket) return; // a moving screen's new connection reconnects by itself
      registered = false;
      clearTimeout(retry);
      if (candidate) {
        // The old node went before the new connection was answered: the new one takes over now —
        // connected again once it is answered (its registration is under way, or starts when it connects).
        socket = candidate;
        candidate = null;
        retire(s);
        options.onStatus?.('connecting');
        return;
      }
      options.onStatus?.('disconnected');
      // Let go by the server (a revoked screen): a screen comes back, and hears why when it registers.
      if (reason === 'io server disconnect' && keepsTime) retry = setTimeout(() => s.connect(), 1_000);
    });
    s.on('connect_error', (err) => options.onConnectError?.(err.message));
    s.io.on('reconnect_attempt', () => s === socket && options.onStatus?.('connecting'));

    s.on('screen:state', (state) => deliver(s, { type: 'state', state }));
    s.on('scene:default-changed', (payload) => deliver(s, { type: 'scene', payload }));
    s.on('scene:updated', (payload) => deliver(s, { type: 'scene', payload }));
    s.on('scene:deleted', (payload) => deliver(s, { type: 'scene-deleted', payload }));
    s.on('kiosk:stream', (state) => deliver(s, { type: 'kiosk', state }));
    // Approved, renamed, moved or revoked: register again (with the credential held) and hear what it is now.
    s.on('screen:enrolment', () => s === socket && register(true));
    // The node is going away, or holds more than its share: stay until a random moment of the
    // window it gives (still showing, still receiving pushes), then move. The spread keeps a
    // whole wall of screens from landing on one node in the same instant.
    const later = (why: 'draining' | 'rebalance', withinMs: number, to: string | undefined) => {
      if (s !== socket) return;
      clearTimeout(moving);
      moving = setTimeout(() => s === socket && move(why, to), Math.random() * Math.max(0, withinMs));
    };
    s.on('server:draining', ({ reconnectWithinMs, to }) => later('draining', reconnectWithinMs, to));
    s.on('server:move', ({ withinMs, to }) => later('rebalance', withinMs, to));
    s.onAny((event: string, ...args: unknown[]) => {
      if (s !== socket) return;
      for (const [name, handler] of heard) if (name === event) (handler as (...a: unknown[]) => void)(...args);
    });
  }
  wire(socket);

  return {
    get socket() {
      return socket;
    },
    registered: () => registered && socket.connected,
    register: (options) => socket.connected && register(options?.quiet),
    report(name, report) {
      // One emit for every report: the event is the report's (its types are checked by the signature above).
      if (registered && socket.connected) (socket.emit as (event: string, payload: unknown) => void)(reportEvent(name), report);
    },
    listen(event, handler) {
      const entry: [string, (...args: never[]) => void] = [event, handler as (...args: never[]) => void];
      heard.push(entry);
      return () => void heard.splice(heard.indexOf(entry), 1);
    },
    ask(name, report, timeoutMs) {
      if (!registered || !socket.connected) return Promise.resolve({ error: 'Not registered yet' });
      const on = socket;
      return new Promise((resolve) => {
        (on.timeout(timeoutMs).emit as (event: string, payload: unknown, ack: (err: Error | null, result: Ack<AnswerOf<typeof name>>) => void) => void)(
          reportEvent(name),
          report,
          (err, result) => resolve(err ? { error: 'No answer in time' } : result),
        );
      });
    },
    clock: () => estimate,
    close() {
      closed = true;
      clearTimeout(retry);
      clearTimeout(moving);
      clearTimeout(clockRefresh);
      giveUpCandidate();
      socket.close();
    },
  };
}
