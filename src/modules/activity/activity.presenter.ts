import type { ActivityDto } from '../../shared/api/activity.ts';
import type { Activity } from './activity.entity.ts';

export function presentActivity(a: Activity): ActivityDto {
  return {
    id: a.id,
    created_at: a.createdAt.toISOString(),
    actor: a.actor,
    action: a.action,
    kind: a.kind,
    subject_id: a.subjectId ?? null,
    subject_name: a.subjectName ?? null,
  };
}
