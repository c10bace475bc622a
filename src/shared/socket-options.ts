/**
 * Socket.IO client options every screen uses (the benchmark too): WebSocket first,
 * long-polling when a proxy refuses it; jittered reconnects, for ever (socket.io-client's
 * default `reconnectionAttempts: Infinity`): quick at first, so a restarted node is
 * repopulated in seconds, then backing off to about 10 s, so a screen whose server is away for
 * hours keeps showing its last scene and knocks now and then, not twice a second. (A planned
 * restart does not wait on the backoff: the node tells its screens to move, screen-client.ts.)
 *
 * Kept apart from events.ts on purpose: events.ts builds zod schemas at import time, and a
 * browser screen that only needs these options should not download zod (about 25 KB gzip).
 * events.ts re-exports it, so the contract stays in one place.
 */
export const SOCKET_OPTIONS = {
  path: '/socket.io',
  transports: ['websocket', 'polling'],
  tryAllTransports: true,
  reconnectionDelay: 500,
  reconnectionDelayMax: 10_000,
  randomizationFactor: 0.5,
} as const;

/** What a screen's handshake says when it connects because its node asked it to move (the hub asks no screen twice in a row: src/realtime/shares.ts). */
export const MOVED_QUERY = { moved: 'rebalance' } as const;
/** The handshake's query naming the node a moving screen was sent to (deploy/nginx/nature-wall.conf routes by it). */
export const TO_NODE_QUERY = 'nw_node';
