/** Visitors' submissions and the admins' review queue. */
import { defineModule } from '../module.ts';
import { submissionPushes } from './submission.changes.ts';
import { Submission } from './submission.entity.ts';
import { submissionsRouter } from './submissions.routes.ts';

export const submissionsModule = defineModule({
  name: 'submissions',
  entities: [Submission],
  routes: ({ commands, fetcher, limits }) => [
    submissionsRouter({ commands, fetcher, submitLimit: limits.callerLimits('submit', { anonymousPoints: 20, adminPoints: 2000, durationSeconds: 10 * 60 }) }),
  ],
  pushes: ({ orm }) => submissionPushes(orm),
});
