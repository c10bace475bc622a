/** The audit trail of admin writes (GET /api/activity). */
import { z } from 'zod';
import { IsoDate, queryInt } from './common.ts';
import { endpoint } from './contract.ts';
import { ROUTES } from './routes.ts';

export const ACTIVITY_KINDS = ['stream', 'scene', 'default-scene', 'token', 'submission', 'discovery', 'screen-group', 'screen', 'schedule', 'takeover', 'alert-rule', 'alert-destination', 'account'] as const;
export type ActivityKind = (typeof ACTIVITY_KINDS)[number];

export const ActivityQuery = z.object({
  kind: z.enum(ACTIVITY_KINDS).optional(),
  limit: queryInt(1, 200).withDefault(50),
});
export type ActivityQuery = z.infer<typeof ActivityQuery>;

export const ActivityDto = z.strictObject({
  id: z.number().int(),
  created_at: IsoDate,
  actor: z.string().describe('An admin\'s username, `token:<name>`, `api-token`, `anonymous` or `system`'),
  action: z.string().describe('The change, e.g. `stream.updated`, `default-scene.changed`'),
  kind: z.string().describe('What kind of record: the change\'s first part (`stream`, `scene`, `default-scene`, …)'),
  subject_id: z.number().int().nullable(),
  subject_name: z.string().nullable(),
});
export type ActivityDto = z.output<typeof ActivityDto>;

export const activityEndpoints = {
  list: endpoint({
    ...ROUTES['activity.list'],
    summary: 'The latest admin writes, newest first (optionally of one kind)',
    access: 'viewer',
    query: ActivityQuery,
    responses: { 200: z.array(ActivityDto) },
  }),
};
