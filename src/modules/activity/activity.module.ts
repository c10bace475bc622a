/** The audit trail: every command's journal entry, listed for the console and pushed to it. */
import { defineModule } from '../module.ts';
import { activityPushes } from './activity.changes.ts';
import { Activity } from './activity.entity.ts';
import { activityRouter } from './activity.routes.ts';
import { activityJournal } from './activity.service.ts';

export const activityModule = defineModule({
  name: 'activity',
  entities: [Activity],
  journal: activityJournal,
  routes: () => [activityRouter()],
  pushes: () => activityPushes,
});
