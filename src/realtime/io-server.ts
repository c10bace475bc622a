/**
 * The Socket.IO server and its limits: typed events, message size, the cluster adapter,
 * connection-state recovery where the adapter supports it, and the origin check.
 */
import type http from 'node:http';
import type { Duplex } from 'node:stream';
import { Server, type Socket } from 'socket.io';
import { isAllowedOrigin } from '../http/origin.ts';
import type { ClientToServerEvents, ScreenPresence, ServerToClientEvents } from '../shared/events.ts';
import type { AdapterSetup } from './adapter.ts';
import type { ChangeNotice, Shows } from './notice.ts';


/** A node's answer to a presence request: its own screens. */
export interface PresenceAnswer {
  requestId: string;
  node: string;
  screens: ScreenPresence[];
}

export interface InterServerEvents {
  'nw:changes': (notice: ChangeNotice) => void;
  'nw:presence-request': (request: { requestId: string }) => void;
  'nw:presence-answer': (answer: PresenceAnswer) => void;
  /** Each node's connection count, every few seconds (shares.ts). */
  'nw:share': (report: unknown) => void;
}

/** Who a socket is, once registered (kept compact: it is multiplied by every idle screen). */
export interface Presence {
  kind: ScreenPresence['kind'];
  device: string | null;
  name: string | null;
  /** What it shows and why, as the screen feature says (screen-feature.ts). */
  shows: Shows;
  connectedAt: number;
  /** Its last report of any kind: screens report in periodically, so that is their heartbeat. */
  heartbeatAt: number;
  /** The latest value of each kept report, by report name (reports.ts: what the screen says it is now). */
  reported: Record<string, unknown>;
  node: string;
  /** False for a public viewer (approval on, no credential): listed nowhere, its reports write nothing. */
  counted: boolean;
  /** The approved screen it is, if any. */
  enrolled: number | null;
}

export interface SocketData {
  presence?: Presence;
  /** What the screen feature keeps about a wall or kiosk (what decides what it shows); the hub never reads it. */
  screen?: unknown;
}

export type HubServer = Server<ClientToServerEvents, ServerToClientEvents, InterServerEvents, SocketData>;
export type HubSocket = Socket<ClientToServerEvents, ServerToClientEvents, InterServerEvents, SocketData>;

const MAX_MESSAGE_BYTES = 16 * 1024;

/** The cookie a node's handshake answer sets, naming the node: a load balancer sends the session's later requests back to it. */
export const NODE_COOKIE = 'nw_node';

export function createIoServer(server: http.Server, options: { adapter?: AdapterSetup | undefined; allowedOrigins: readonly string[]; nodeName?: string | undefined }): HubServer {
  const io: HubServer = new Server(server, {
    serveClient: false,
    maxHttpBufferSize: MAX_MESSAGE_BYTES,
    ...(options.adapter ? { adapter: options.adapter.factory } : {}),
    ...(options.adapter?.supportsRecovery ? { connectionStateRecovery: { maxDisconnectionDuration: 120_000 } } : {}),
    // Browsers always send Origin; a cross-site page must not open a socket as our screens.
    allowRequest: (req, callback) => {
      const origin = req.headers.origin;
      callback(null, origin === undefined || isAllowedOrigin(origin, req.headers.host, options.allowedOrigins));
    },
  });
  releaseUpgradeRequests(io);
  const { nodeName } = options;
  if (nodeName) {
    // deploy/nginx/nature-wall.conf: a long-polling session's requests (they carry its `sid`) go to the node this names.
    const cookie = `${NODE_COOKIE}=${nodeName}; Path=/socket.io/; HttpOnly; SameSite=Lax`;
    io.engine.on('initial_headers', (headers: Record<string, string>) => {
      headers['set-cookie'] = cookie;
    });
  }
  return io;
}

type UpgradeHandler = (req: http.IncomingMessage, socket: Duplex, head: Buffer) => void;

/**
 * Engine.IO (6.6) wraps every WebSocket upgrade in a stand-in response for its middlewares and
 * hangs a `close` listener on the TCP socket that holds it — and the upgrade request with it
 * (every header, raw and parsed) — for as long as the screen stays connected: about a kilobyte
 * per idle screen, more with a browser's headers. Our engine middleware (drain's) never listens
 * for that `close`, so the listener goes once the upgrade is handled; `socket.handshake` keeps
 * the headers registration reads.
 */
function releaseUpgradeRequests(io: HubServer): void {
  const engine = io.engine as unknown as { handleUpgrade: UpgradeHandler };
  const handleUpgrade = engine.handleUpgrade.bind(engine);
  engine.handleUpgrade = (req, socket, head) => {
    const before = socket.rawListeners('close').length;
    handleUpgrade(req, socket, head);
    // The stand-in's listener is the first one added (in its constructor, before anything else runs).
    const added = socket.rawListeners('close')[before];
    if (added) socket.removeListener('close', added as (...args: unknown[]) => void);
  };
}
