import { defineEntity, p } from '@mikro-orm/core';

/**
 * The last sighting of each screen (keyed by realtime/presence.ts screenKey: a browser's device
 * id and what it shows, or the connection id), kept for a day so the console lists screens
 * that went offline as "last seen …".
 */
export const ScreenSightingSchema = defineEntity({
  name: 'ScreenSighting',
  tableName: 'screen_sightings',
  properties: {
    key: p.text().primary(),
    /** The last connection id (commands are addressed to it while it is online). */
    socketId: p.text(),
    device: p.text().nullable(),
    kind: p.text(),
    name: p.text().nullable(),
    follows: p.text().nullable(),
    sceneId: p.integer().nullable(),
    groupId: p.integer().nullable(),
    /** Which rule decided what it showed (src/shared/schedules/rules.ts). */
    rule: p.text().nullable(),
    position: p.integer().nullable(),
    node: p.text(),
    health: p.json<Record<string, string>>().default('{}'),
    connectedAt: p.datetime(),
    lastSeenAt: p.datetime().index('screen_sightings_last_seen_idx'),
    online: p.boolean().default(true),
  },
});

export class ScreenSighting extends ScreenSightingSchema.class {}
ScreenSightingSchema.setClass(ScreenSighting);
