/** The audit trail of admin writes (GET /api/activity). */
import { z } from 'zod';

export const ACTIVITY_KINDS = ['stream', 'scene', 'default-scene', 'token', 'submission', 'discovery'] as const;

export const ActivityQuery = z.object({
  kind: z.enum(ACTIVITY_KINDS).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});
export type ActivityQuery = z.infer<typeof ActivityQuery>;

export interface ActivityDto {
  id: number;
  created_at: string;
  /** An admin's username, `token:<name>`, `api-token`, `anonymous` or `system`. */
  actor: string;
  /** The change, e.g. `stream.updated`, `default-scene.changed`. */
  action: string;
  kind: string;
  subject_id: number | null;
  subject_name: string | null;
}
