import { defineEntity, p } from '@mikro-orm/core';

/** One admin write: who did what to which record, and when (written by runCommand's journal). */
export const ActivitySchema = defineEntity({
  name: 'Activity',
  tableName: 'admin_activity',
  properties: {
    id: p.integer().primary(),
    createdAt: p.datetime().defaultRaw('now()').onCreate(() => new Date()),
    /** An admin's username, `token:<name>`, `api-token`, `anonymous` or `system`. */
    actor: p.text(),
    /** The change type, e.g. `stream.updated`, `default-scene.changed`. */
    action: p.text(),
    /** What kind of record: the change type's first part (`stream`, `scene`, `default-scene`, `token`). */
    kind: p.text(),
    subjectId: p.integer().nullable(),
    subjectName: p.text().nullable(),
  },
  indexes: [
    { name: 'admin_activity_created_idx', properties: ['createdAt'] },
    { name: 'admin_activity_kind_created_idx', properties: ['kind', 'createdAt'] },
  ],
});

export class Activity extends ActivitySchema.class {}
ActivitySchema.setClass(Activity);
