/** Human evaluation's change types, and the queue figures pushed to raters and admins. */
import type { Orm } from '../../db.ts';
import { changesOf } from '../../domain/changes.ts';
import { push, type FeaturePushes } from '../../realtime/pushes.ts';
import { KIND_ROOMS } from '../../realtime/rooms.ts';
import { queueStatus } from './evaluation.service.ts';

declare module '../../domain/changes.ts' {
  interface ChangeTypes {
    /** A rater rated or skipped a stream (news for raters and admins, not the audit trail). */
    'evaluation.recorded': { type: 'evaluation.recorded'; streamId: number; skipped: boolean; transient: true };
  }
}

export function evaluationPushes(orm: Orm): FeaturePushes {
  const rooms = [KIND_ROOMS.rater, KIND_ROOMS.admin];
  return {
    name: 'evaluation',
    rooms,
    async pushes(changes) {
      if (changesOf(changes, 'evaluation.recorded').length === 0) return [];
      return [push(rooms, 'evaluation:queue', await queueStatus(orm.em.fork()))];
    },
  };
}
