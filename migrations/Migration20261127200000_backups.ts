import { Migration } from '@mikro-orm/migrations';

/** Backup attempts (issue 42): the console, /metrics and the backup_stale alert read the newest good one. */
export class Migration20261127200000_backups extends Migration {

  override name = 'Migration20261127200000_backups';

  override up(): void | Promise<void> {
    this.addSql(`create table "backups" ("id" serial primary key, "file" text not null, "trigger" text not null, "node" text not null, "started_at" timestamptz not null, "finished_at" timestamptz null, "ok" boolean null, "bytes" bigint null, "tables" int null, "rows" bigint null, "error" text null);`);
    this.addSql(`create index "backups_ok_finished_at_index" on "backups" ("finished_at") where "ok";`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "backups" cascade;`);
  }

}
