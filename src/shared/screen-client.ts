/**
 * A screen's connection to the scene controller, for the browser and for Node (benchmarks,
 * tests): connect, register on every (re)connect, keep an estimate of the server's clock, hand
 * every state-bearing message to `onMessage`, and send the reports features declare
 * (src/shared/reports.ts). Folding messages into what is shown (with the version rule) is the
 * caller's job — see applyScreenMessage and the web store.
 */
import { io, type ManagerOptions, type Socket, type SocketOptions } from 'socket.io-client';
import { CLOCK_BURST, CLOCK_REFRESH_MS, estimateClock, type ClockEstimate, type ClockSample } from './clock.ts';
import type { Ack, ClientToServerEvents, PairingState, Registration, RegistrationAnswer, ServerToClientEvents } from './events.ts';
import { reportEvent, type AnswerOf, type ReportName, type ReportOf } from './reports.ts';
import { SOCKET_OPTIONS } from './socket-options.ts'; // not events.ts: a screen need not download zod
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
  socketOptions?: Partial<ManagerOptions & SocketOptions>;
}

export interface ScreenClient {
  socket: ScreenSocket;
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
  const socket: ScreenSocket = options.url ? io(options.url, socketOptions) : io(socketOptions);
  const { onMessage } = options;

  options.onStatus?.('connecting');
  let retry: ReturnType<typeof setTimeout> | undefined;

  // The server's clock: a burst of samples, one at a time (never queued behind each other),
  // at every connect and every CLOCK_REFRESH_MS; each burst's estimate replaces the last.
  let estimate: ClockEstimate | null = null;
  let syncing = false;
  const sample = () =>
    new Promise<ClockSample | null>((resolve) => {
      const sentAt = performance.now();
      socket.timeout(CLOCK_SAMPLE_TIMEOUT_MS).emit('clock:sync', {}, (err: Error | null, result: Ack<{ now: number }>) => {
        const receivedAt = performance.now();
        resolve(!err && 'data' in result ? { sentAt, serverTime: result.data.now, receivedAt } : null);
      });
    });
  // Only screens flip on the server's clock; consoles and raters have no use for it.
  const keepsTime = options.registration.kind === 'wall' || options.registration.kind === 'kiosk';
  const syncClock = async () => {
    if (syncing || !keepsTime) return;
    syncing = true;
    try {
      const samples: ClockSample[] = [];
      for (let i = 0; i < CLOCK_BURST && socket.connected; i++) {
        const s = await sample();
        if (s) samples.push(s);
      }
      const next = estimateClock(samples);
      if (next) {
        estimate = next;
        options.onClock?.(next);
      }
    } finally {
      syncing = false;
    }
  };
  const clockRefresh = keepsTime
    ? setInterval(() => {
        if (socket.connected) void syncClock();
      }, CLOCK_REFRESH_MS)
    : undefined;
  let registered = false;
  const registration = (): Registration => {
    const credential = keepsTime ? options.credential?.() : null;
    return credential ? ({ ...options.registration, credential } as Registration) : options.registration;
  };
  const register = (quiet = false) => {
    clearTimeout(retry);
    socket.emit('screen:register', registration(), (result) => {
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
        return onMessage({ type: 'state', state: answer });
      }
      if (result.refused === 'credential') return options.onCredentialRefused?.(result.error);
      const retrying = result.retryAfterMs !== undefined;
      // A safety-net registration on a working connection that is refused changes nothing shown: the last answer holds.
      if (!quiet) options.onError?.(result.error, retrying);
      // A passing failure (the database is away): ask again while the socket stays open.
      if (retrying) retry = setTimeout(() => socket.connected && register(), result.retryAfterMs);
    });
  };
  socket.on('connect', () => {
    options.onStatus?.('connected');
    register();
  });
  socket.on('disconnect', (reason) => {
    registered = false;
    clearTimeout(retry);
    options.onStatus?.('disconnected');
    // Let go by the server (a revoked screen): a screen comes back, and hears why when it registers.
    if (reason === 'io server disconnect' && keepsTime) retry = setTimeout(() => socket.connect(), 1_000);
  });
  socket.io.on('reconnect_attempt', () => options.onStatus?.('connecting'));

  socket.on('screen:state', (state) => onMessage({ type: 'state', state }));
  socket.on('scene:default-changed', (payload) => onMessage({ type: 'scene', payload }));
  socket.on('scene:updated', (payload) => onMessage({ type: 'scene', payload }));
  socket.on('scene:deleted', (payload) => onMessage({ type: 'scene-deleted', payload }));
  socket.on('kiosk:stream', (state) => onMessage({ type: 'kiosk', state }));
  // Approved, renamed, moved or revoked: register again (with the credential held) and hear what it is now.
  socket.on('screen:enrolment', () => register(true));
  // The node is going away: stay until a random moment of the window it gives (still showing,
  // still receiving pushes), then reconnect — through a load balancer, to another node. The
  // spread keeps a whole wall of screens from landing on one node in the same instant.
  let moving: ReturnType<typeof setTimeout> | undefined;
  socket.on('server:draining', ({ reconnectWithinMs }) => {
    clearTimeout(moving);
    moving = setTimeout(() => {
      if (socket.connected) socket.disconnect().connect();
    }, Math.random() * Math.max(0, reconnectWithinMs));
  });

  return {
    socket,
    registered: () => registered && socket.connected,
    register: (options) => socket.connected && register(options?.quiet),
    report(name, report) {
      // One emit for every report: the event is the report's (its types are checked by the signature above).
      if (registered && socket.connected) (socket.emit as (event: string, payload: unknown) => void)(reportEvent(name), report);
    },
    listen(event, handler) {
      const on = socket.on.bind(socket) as (event: string, handler: unknown) => void;
      const off = socket.off.bind(socket) as (event: string, handler: unknown) => void;
      on(event, handler);
      return () => off(event, handler);
    },
    ask(name, report, timeoutMs) {
      if (!registered || !socket.connected) return Promise.resolve({ error: 'Not registered yet' });
      return new Promise((resolve) => {
        (socket.timeout(timeoutMs).emit as (event: string, payload: unknown, ack: (err: Error | null, result: Ack<AnswerOf<typeof name>>) => void) => void)(
          reportEvent(name),
          report,
          (err, result) => resolve(err ? { error: 'No answer in time' } : result),
        );
      });
    },
    clock: () => estimate,
    close() {
      clearTimeout(retry);
      clearTimeout(moving);
      clearInterval(clockRefresh);
      socket.close();
    },
  };
}
