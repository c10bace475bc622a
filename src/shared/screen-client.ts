/**
 * A screen's connection to the scene controller, for the browser and for Node (benchmarks,
 * tests): connect, register on every (re)connect, and hand every state-bearing message to
 * `onMessage`. Folding messages into what is shown (with the version rule) is the caller's
 * job — see applyScreenMessage and the web store.
 */
import { io, type ManagerOptions, type Socket, type SocketOptions } from 'socket.io-client';
import type { ScreenCommandName } from './api/screens.ts';
import type { ClientToServerEvents, HealthReport, Registration, ServerToClientEvents } from './events.ts';
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
  /** An operator's command from the console (reload, identify). */
  onCommand?: (command: ScreenCommandName) => void;
  /** `retrying`: a passing failure (the database is away); the client asks again by itself. */
  onError?: (error: string, retrying: boolean) => void;
  socketOptions?: Partial<ManagerOptions & SocketOptions>;
}

export interface ScreenClient {
  socket: ScreenSocket;
  /** Tell the hub how the players are doing (presence for admins). */
  reportHealth(report: HealthReport): void;
  close(): void;
}

export function connectScreen(options: ScreenClientOptions): ScreenClient {
  const socketOptions = { ...SOCKET_OPTIONS, ...options.socketOptions } as Partial<ManagerOptions & SocketOptions>;
  const socket: ScreenSocket = options.url ? io(options.url, socketOptions) : io(socketOptions);
  const { onMessage } = options;

  options.onStatus?.('connecting');
  let retry: ReturnType<typeof setTimeout> | undefined;
  const register = () => {
    clearTimeout(retry);
    socket.emit('screen:register', options.registration, (result) => {
      if ('data' in result) return onMessage({ type: 'state', state: result.data });
      const retrying = result.retryAfterMs !== undefined;
      options.onError?.(result.error, retrying);
      // A passing failure (the database is away): ask again while the socket stays open.
      if (retrying) retry = setTimeout(() => socket.connected && register(), result.retryAfterMs);
    });
  };
  socket.on('connect', () => {
    options.onStatus?.('connected');
    register();
  });
  socket.on('disconnect', () => {
    clearTimeout(retry);
    options.onStatus?.('disconnected');
  });
  socket.io.on('reconnect_attempt', () => options.onStatus?.('connecting'));

  socket.on('screen:state', (state) => onMessage({ type: 'state', state }));
  socket.on('scene:default-changed', (payload) => onMessage({ type: 'scene', payload }));
  socket.on('scene:updated', (payload) => onMessage({ type: 'scene', payload }));
  socket.on('scene:deleted', (payload) => onMessage({ type: 'scene-deleted', payload }));
  socket.on('kiosk:stream', (state) => onMessage({ type: 'kiosk', state }));
  socket.on('screen:command', ({ command }) => options.onCommand?.(command));

  return {
    socket,
    reportHealth(report) {
      if (socket.connected) socket.emit('screen:health', report);
    },
    close() {
      clearTimeout(retry);
      socket.close();
    },
  };
}
