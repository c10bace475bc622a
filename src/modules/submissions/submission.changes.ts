/** Submissions' change types, and the pushes that keep every admin's review queue live. */
import type { Orm } from '../../db.ts';
import { changesOf } from '../../domain/changes.ts';
import { push, type FeaturePushes } from '../../realtime/pushes.ts';
import { KIND_ROOMS } from '../../realtime/rooms.ts';
import { presentSubmission } from './submission.presenter.ts';
import { Submission } from './submission.entity.ts';

declare module '../../domain/changes.ts' {
  interface ChangeTypes {
    'submission.created': { type: 'submission.created'; submissionId: number; name: string };
    'submission.approved': { type: 'submission.approved'; submissionId: number; name: string; streamId: number };
    'submission.rejected': { type: 'submission.rejected'; submissionId: number; name: string };
    /** Many pending submissions rejected at once (a filtered set). */
    'submission.bulk-rejected': { type: 'submission.bulk-rejected'; count: number; name: string };
  }
}

export function submissionPushes(orm: Orm): FeaturePushes {
  const admins = [KIND_ROOMS.admin];
  return {
    name: 'submissions',
    rooms: admins,
    async pushes(changes, { version }) {
      const touched = changesOf(changes, 'submission.created', 'submission.approved', 'submission.rejected');
      const bulk = changesOf(changes, 'submission.bulk-rejected');
      if (touched.length === 0 && bulk.length === 0) return [];
      const em = orm.em.fork();
      if (touched.length === 0) {
        const pending = await em.count(Submission, { status: 'pending' });
        return bulk.map((c) => push(admins, 'submissions:bulk-reviewed', { version, count: c.count, pending }));
      }
      const [rows, pending] = await Promise.all([
        em.find(Submission, { id: { $in: touched.map((c) => c.submissionId) } }),
        em.count(Submission, { status: 'pending' }),
      ]);
      const byId = new Map(rows.map((r) => [r.id, presentSubmission(r)]));
      return touched.flatMap((c) => {
        const submission = byId.get(c.submissionId);
        if (!submission) return [];
        return [push(admins, c.type === 'submission.created' ? 'submission:created' : 'submission:reviewed', { version, submission, pending })];
      });
    },
  };
}
