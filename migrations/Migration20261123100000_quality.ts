import { Migration } from '@mikro-orm/migrations';

/**
 * Automatic quality analysis: every analysis in `quality_analyses` (the stream's fields follow
 * the newest), "analyze all" runs with their progress in `quality_runs`, and each stream's
 * health (unknown, live, degraded, offline) with the failed checks in a row behind it.
 */
export class Migration20261123100000_quality extends Migration {

  override name = 'Migration20261123100000_quality';

  override up(): void | Promise<void> {
    this.addSql(`create table "quality_analyses" ("id" serial primary key, "stream_id" int not null, "created_at" timestamptz not null default now(), "score" double precision null, "confidence" double precision null, "method" text null, "faults" jsonb not null default '[]', "metrics" jsonb not null default '{}', "error" text null, "duration_ms" int null, "trigger" text not null default 'manual');`);
    this.addSql(`alter table "quality_analyses" add constraint "quality_analyses_stream_id_foreign" foreign key ("stream_id") references "streams" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "quality_analyses" add constraint "quality_analyses_score_check" check (score between 0 and 100);`);
    this.addSql(`alter table "quality_analyses" add constraint "quality_analyses_trigger_check" check ("trigger" in ('manual', 'all', 'schedule', 'screens', 'recheck', 'discovery'));`);
    this.addSql(`create index "quality_analyses_stream_created_idx" on "quality_analyses" ("stream_id", "created_at" desc);`);
    this.addSql(`create table "quality_runs" ("id" serial primary key, "total" int not null, "done" int not null default 0, "failed" int not null default 0, "started_by" text not null, "started_at" timestamptz not null default now(), "finished_at" timestamptz null);`);
    this.addSql(`alter table "streams" add "health" text not null default 'unknown', add "health_changed_at" timestamptz null, add "failed_checks" int not null default 0;`);
    this.addSql(`alter table "streams" add constraint "streams_health_check" check ("health" in ('unknown', 'live', 'degraded', 'offline'));`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "streams" drop constraint "streams_health_check";`);
    this.addSql(`alter table "streams" drop column "health", drop column "health_changed_at", drop column "failed_checks";`);
    this.addSql(`drop table "quality_runs";`);
    this.addSql(`drop table "quality_analyses";`);
  }

}
