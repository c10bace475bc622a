/**
 * The programme's change types, and its push: every admin console gets the whole programme
 * again (it is small: groups, placements, schedule entries, the takeover). Screens are moved by
 * the hub, which re-decides what each shows after any of these (ScreenRouter).
 */
import type { Orm } from '../../db.ts';
import { changesOf } from '../../domain/changes.ts';
import { push, type FeaturePushes } from '../../realtime/pushes.ts';
import { KIND_ROOMS } from '../../realtime/rooms.ts';
import { presentProgramme } from './programme.presenter.ts';

declare module '../../domain/changes.ts' {
  interface ChangeTypes {
    'screen-group.created': { type: 'screen-group.created'; groupId: number; name: string };
    'screen-group.updated': { type: 'screen-group.updated'; groupId: number; name: string };
    'screen-group.deleted': { type: 'screen-group.deleted'; groupId: number; name: string };
    /** An admin put a screen in a group or gave it its own scene. */
    'screen.placed': { type: 'screen.placed'; device: string; name: string };
    /** A screen joined a group by its address (?group=<slug>). */
    'screen.joined': { type: 'screen.joined'; device: string; groupId: number; name: string };
    'schedule.created': { type: 'schedule.created'; scheduleId: number; name: string };
    'schedule.updated': { type: 'schedule.updated'; scheduleId: number; name: string };
    'schedule.deleted': { type: 'schedule.deleted'; scheduleId: number; name: string };
    /** A schedule window started or ended: the screens it concerns switch (one per boundary, cluster-wide). */
    'schedule.boundary': { type: 'schedule.boundary'; name: string; showAt: number };
    'takeover.started': { type: 'takeover.started'; sceneId: number; name: string };
    'takeover.released': { type: 'takeover.released'; sceneId: number; name: string };
  }
}

/** Every change type after which screens must be decided again. */
export const PROGRAMME_CHANGES = [
  'screen-group.created',
  'screen-group.updated',
  'screen-group.deleted',
  'screen.placed',
  'screen.joined',
  'schedule.created',
  'schedule.updated',
  'schedule.deleted',
  'schedule.boundary',
  'takeover.started',
  'takeover.released',
] as const;

export function programmePushes(orm: Orm, now: () => number): FeaturePushes {
  const admins = [KIND_ROOMS.admin];
  return {
    name: 'programme',
    rooms: admins,
    async pushes(changes, { version }) {
      if (changesOf(changes, ...PROGRAMME_CHANGES).length === 0) return [];
      return [push(admins, 'programme:updated', { version, ...(await presentProgramme(orm.em.fork(), now())) })];
    },
  };
}
