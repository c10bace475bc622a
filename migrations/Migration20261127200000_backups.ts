import { Migration } from '@mikro-orm/migrations';

/** Backup attempts (issue 42): the console, /metrics and the backup_stale alert rule (added here) read the newest good one. */
export class Migration20261127200000_backups extends Migration {

  override name = 'Migration20261127200000_backups';

  override up(): void | Promise<void> {
    this.addSql(`create table "backups" ("id" serial primary key, "file" text not null, "trigger" text not null, "node" text not null, "started_at" timestamptz not null, "finished_at" timestamptz null, "ok" boolean null, "bytes" bigint null, "tables" int null, "rows" bigint null, "error" text null);`);
    this.addSql(`create index "backups_ok_finished_at_index" on "backups" ("finished_at") where "ok";`);
    this.addSql(`alter table "alert_rules" drop constraint "alert_rules_kind_check";`);
    this.addSql(`alter table "alert_rules" add constraint "alert_rules_kind_check" check ("kind" in ('screen_offline', 'stream_unhealthy', 'discovery_failed', 'analysis_failures', 'database_unavailable', 'login_failures', 'backup_stale'));`);
    this.addSql(`insert into "alert_rules" ("kind", "for_seconds", "hold_seconds", "threshold") values ('backup_stale', 0, 0, null) on conflict do nothing;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`delete from "alert_rules" where "kind" = 'backup_stale';`);
    this.addSql(`alter table "alert_rules" drop constraint "alert_rules_kind_check";`);
    this.addSql(`alter table "alert_rules" add constraint "alert_rules_kind_check" check ("kind" in ('screen_offline', 'stream_unhealthy', 'discovery_failed', 'analysis_failures', 'database_unavailable', 'login_failures'));`);
    this.addSql(`drop table if exists "backups" cascade;`);
  }

}
