/**
 * Enrolment's change types and pushes: the browser that was approved, renamed or moved, or
 * revoked hears it on its own room (every node), and registers again — approved with the
 * credential it holds, revoked to be refused and show a pairing code. Admins' lists reload.
 */
import { changesOf } from '../../domain/changes.ts';
import { push, type FeaturePushes, type Push } from '../../realtime/pushes.ts';
import { KIND_ROOMS } from '../../realtime/rooms.ts';

declare module '../../domain/changes.ts' {
  interface ChangeTypes {
    /** An admin approved a waiting browser by its code. */
    'screen.approved': { type: 'screen.approved'; screenId: number; pairingId: number; name: string };
    /** An admin renamed an approved screen or moved it to another group or position. */
    'screen.changed': { type: 'screen.changed'; screenId: number; name: string };
    /** An admin revoked an approved screen. */
    'screen.revoked': { type: 'screen.revoked'; screenId: number; name: string };
    /** A browser asked to be a screen (news for the console's waiting list, not the journal). */
    'screen.pairing-requested': { type: 'screen.pairing-requested'; transient: true };
  }
}

const ENROLMENT_CHANGES = ['screen.approved', 'screen.changed', 'screen.revoked', 'screen.pairing-requested'] as const;

/** Every browser waiting for approval, and each on its own. */
export const PAIRING_ROOM = 'screens:pairing';
export const pairingRoom = (pairingId: number) => `pairing:${pairingId}`;
/** Every approved screen, and each on its own (all of a screen's connections). */
export const ENROLLED_ROOM = 'screens:enrolled';
export const enrolledRoom = (screenId: number) => `enrolled:${screenId}`;

export function enrolmentPushes(): FeaturePushes {
  return {
    name: 'enrolment',
    rooms: [PAIRING_ROOM, ENROLLED_ROOM, KIND_ROOMS.admin],
    async pushes(changes, { version }) {
      const pushes: Push[] = [];
      if (changesOf(changes, ...ENROLMENT_CHANGES).length > 0) pushes.push(push([KIND_ROOMS.admin], 'enrolment:updated', { version }));
      for (const c of changesOf(changes, 'screen.approved')) pushes.push(push([pairingRoom(c.pairingId)], 'screen:enrolment', { state: 'approved' }));
      for (const c of changesOf(changes, 'screen.changed')) pushes.push(push([enrolledRoom(c.screenId)], 'screen:enrolment', { state: 'changed' }));
      for (const c of changesOf(changes, 'screen.revoked')) pushes.push(push([enrolledRoom(c.screenId)], 'screen:enrolment', { state: 'revoked' }));
      return pushes;
    },
  };
}
