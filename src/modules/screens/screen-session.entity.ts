import { defineEntity, p } from '@mikro-orm/core';

/**
 * One connection of a wall or kiosk, from when it registered to when it left: a screen's uptime
 * is the union of its connections (src/shared/uptime.ts). A screen is its key (realtime/presence.ts
 * screenKey: one browser showing one target), so reconnects add up. Each node refreshes
 * `last_seen_at` of its open connections every minute: an open row that stopped being refreshed
 * belongs to a node that died, and counts as ended when it was last refreshed.
 */
export const ScreenSessionSchema = defineEntity({
  name: 'ScreenSession',
  tableName: 'screen_sessions',
  properties: {
    id: p.bigint('number').primary().autoincrement(),
    screenKey: p.text(),
    socketId: p.text().index('screen_sessions_socket_idx'),
    node: p.text(),
    startedAt: p.datetime(),
    endedAt: p.datetime().nullable(),
    lastSeenAt: p.datetime(),
  },
  indexes: [{ name: 'screen_sessions_key_started_idx', properties: ['screenKey', 'startedAt'] }],
});

export class ScreenSession extends ScreenSessionSchema.class {}
ScreenSessionSchema.setClass(ScreenSession);
