/**
 * Alerts' change types and their push: every admin console gets the alerts overview again
 * (rules, destinations, open and recent incidents, recent deliveries — small, and the Alerts
 * tab shows all of it live).
 */
import type { Orm } from '../../db.ts';
import { changesOf } from '../../domain/changes.ts';
import { push, type FeaturePushes } from '../../realtime/pushes.ts';
import { KIND_ROOMS } from '../../realtime/rooms.ts';
import { alertsOverview } from './alerts.presenter.ts';

declare module '../../domain/changes.ts' {
  interface ChangeTypes {
    'alert-rule.created': { type: 'alert-rule.created'; ruleId: number; name: string };
    'alert-rule.updated': { type: 'alert-rule.updated'; ruleId: number; name: string };
    'alert-rule.deleted': { type: 'alert-rule.deleted'; ruleId: number; name: string };
    'alert-destination.created': { type: 'alert-destination.created'; destinationId: number; name: string };
    'alert-destination.updated': { type: 'alert-destination.updated'; destinationId: number; name: string };
    'alert-destination.deleted': { type: 'alert-destination.deleted'; destinationId: number; name: string };
    /** An incident began, fired, cleared or recovered (news for consoles; the deliveries are the record). */
    'incident.changed': { type: 'incident.changed'; incidentId: number; transient: true };
    /** A delivery was made, tried again, sent or given up. */
    'delivery.changed': { type: 'delivery.changed'; deliveryId: number; transient: true };
  }
}

export const ALERT_CHANGES = [
  'alert-rule.created',
  'alert-rule.updated',
  'alert-rule.deleted',
  'alert-destination.created',
  'alert-destination.updated',
  'alert-destination.deleted',
  'incident.changed',
  'delivery.changed',
] as const;

export function alertPushes(orm: Orm): FeaturePushes {
  const admins = [KIND_ROOMS.admin];
  return {
    name: 'alerts',
    rooms: admins,
    async pushes(changes, { version }) {
      if (changesOf(changes, ...ALERT_CHANGES).length === 0) return [];
      return [push(admins, 'alerts:updated', { version, ...(await alertsOverview(orm.em.fork())) })];
    },
  };
}
