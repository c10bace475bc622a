import { defineEntity, p } from '@mikro-orm/core';

/**
 * One backup attempt (issue 42): when, by what, the file it wrote (in BACKUP_DIR on `node`), and
 * whether it is good. The console, `/metrics` and the `backup_stale` alert read the newest good one.
 */
export const BackupSchema = defineEntity({
  name: 'Backup',
  tableName: 'backups',
  properties: {
    id: p.integer().primary(),
    file: p.text(),
    trigger: p.text(),
    node: p.text(),
    startedAt: p.datetime(),
    finishedAt: p.datetime().nullable(),
    ok: p.boolean().nullable(),
    bytes: p.bigint('number').nullable(),
    tables: p.integer().nullable(),
    rows: p.bigint('number').nullable(),
    error: p.text().nullable(),
  },
});

export class Backup extends BackupSchema.class {}
BackupSchema.setClass(Backup);
