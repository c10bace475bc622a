/**
 * Socket.IO client options every screen uses (the benchmark too): WebSocket first,
 * long-polling when a proxy refuses it; quick, jittered reconnects so a restarted node is
 * repopulated in seconds.
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
  reconnectionDelayMax: 2000,
  randomizationFactor: 0.5,
} as const;
