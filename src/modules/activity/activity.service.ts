/** The audit trail of admin writes: recorded by runCommand's journal, read by the console. */
import type { EntityManager } from '../../db.ts';
import { isJournaled, type DomainChange } from '../../domain/changes.ts';
import type { CommandJournal } from '../../domain/command.ts';
import { Activity } from './activity.entity.ts';

/** The record a change is about, read from the fields changes carry by convention. */
function subjectOf(change: DomainChange): { id: number | null; name: string | null } {
  const fields = change as { streamId?: number; sceneId?: number; tokenId?: number; sourceId?: number; groupId?: number; scheduleId?: number; accountId?: number; screenId?: number; name?: string };
  return { id: fields.streamId ?? fields.sceneId ?? fields.tokenId ?? fields.sourceId ?? fields.groupId ?? fields.scheduleId ?? fields.accountId ?? fields.screenId ?? null, name: fields.name ?? null };
}

export const activityJournal: CommandJournal = {
  async record(tx, changes, actor) {
    for (const change of changes.filter(isJournaled)) {
      const subject = subjectOf(change);
      tx.create(Activity, {
        actor,
        action: change.type,
        kind: change.type.slice(0, change.type.lastIndexOf('.')),
        subjectId: subject.id,
        subjectName: subject.name,
      });
    }
    await tx.flush();
  },
};

/** The newest entries first, optionally of one kind. */
export function listActivity(em: EntityManager, filter: { kind?: string | undefined; limit: number }): Promise<Activity[]> {
  return em.find(Activity, filter.kind ? { kind: filter.kind } : {}, { orderBy: { id: 'desc' }, limit: filter.limit });
}

/** The last time this action happened, for "changed by … at …" lines. */
export function lastActivity(em: EntityManager, action: string): Promise<Activity | null> {
  return em.findOne(Activity, { action }, { orderBy: { id: 'desc' } });
}
