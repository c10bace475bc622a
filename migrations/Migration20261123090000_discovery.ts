import { Migration } from '@mikro-orm/migrations';

/**
 * Discovery runs for real: sources gain a validated config, a schedule and where their finds go;
 * jobs record when they started, their attempts and their queue job; streams remember when
 * discovery last saw them and which source found them. Pagination of a pool of thousands:
 * keyset indexes for each sort and a trigram index for name search.
 * The queue's own tables are pg-boss's (schema `pgboss`, created and migrated by pg-boss itself).
 */
export class Migration20261123090000_discovery extends Migration {

  override name = 'Migration20261123090000_discovery';

  override up(): void | Promise<void> {
    this.addSql(`alter table "discovery_sources" rename column "options" to "config";`);
    this.addSql(`alter table "discovery_sources" add "schedule" text null, add "deliver" text not null default 'pool', add "updated_at" timestamptz not null default now();`);
    this.addSql(`alter table "discovery_sources" add constraint "discovery_sources_deliver_check" check ("deliver" in ('pool', 'review'));`);
    this.addSql(`alter table "discovery_jobs" add "started_at" timestamptz null, add "attempts" int not null default 0, add "queue_job_id" text null, add "trigger" text not null default 'manual', add "options" jsonb not null default '{}';`);
    this.addSql(`alter table "discovery_jobs" add constraint "discovery_jobs_trigger_check" check ("trigger" in ('manual', 'run-all', 'schedule'));`);
    // One queued or running job per source: the database refuses a second, whichever node asks.
    this.addSql(`create unique index "discovery_jobs_one_active_per_source" on "discovery_jobs" ("source_id") where "status" in ('queued', 'running');`);
    this.addSql(`alter table "streams" add "last_seen_at" timestamptz null, add "discovery_source_id" int null;`);
    this.addSql(`alter table "streams" add constraint "streams_discovery_source_id_foreign" foreign key ("discovery_source_id") references "discovery_sources" ("id") on update cascade on delete set null;`);
    this.addSql(`create index "streams_created_keyset_idx" on "streams" ("created_at" desc, "id" desc);`);
    this.addSql(`create index "streams_name_keyset_idx" on "streams" (lower("name"), "id");`);
    this.addSql(`create index "streams_quality_keyset_idx" on "streams" ((coalesce("quality_score", -1)) desc, "id" desc);`);
    this.addSql(`create index "streams_category_idx" on "streams" ("category", "active");`);
    // Scene resolution over thousands of streams: the recent and ranked orders, active streams only.
    this.addSql(`create index "streams_recent_active_idx" on "streams" ("created_at" desc, "id" desc) where "active";`);
    this.addSql(`create index "streams_ranked_active_idx" on "streams" ("quality_score" desc nulls last, "created_at" desc, "id" desc) where "active";`);
    this.addSql(`create extension if not exists pg_trgm;`);
    // What the admin's search box matches (name, place, address), kept by the database itself.
    this.addSql(`alter table "streams" add "search_text" text generated always as (lower("name" || ' ' || coalesce("location_name", '') || ' ' || "url")) stored;`);
    this.addSql(`create index "streams_search_trgm_idx" on "streams" using gin ("search_text" gin_trgm_ops);`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index "streams_search_trgm_idx";`);
    this.addSql(`alter table "streams" drop column "search_text";`);
    this.addSql(`drop index "streams_ranked_active_idx";`);
    this.addSql(`drop index "streams_recent_active_idx";`);
    this.addSql(`drop index "streams_category_idx";`);
    this.addSql(`drop index "streams_quality_keyset_idx";`);
    this.addSql(`drop index "streams_name_keyset_idx";`);
    this.addSql(`drop index "streams_created_keyset_idx";`);
    this.addSql(`alter table "streams" drop constraint "streams_discovery_source_id_foreign";`);
    this.addSql(`alter table "streams" drop column "last_seen_at", drop column "discovery_source_id";`);
    this.addSql(`drop index "discovery_jobs_one_active_per_source";`);
    this.addSql(`alter table "discovery_jobs" drop constraint "discovery_jobs_trigger_check";`);
    this.addSql(`alter table "discovery_jobs" drop column "started_at", drop column "attempts", drop column "queue_job_id", drop column "trigger", drop column "options";`);
    this.addSql(`alter table "discovery_sources" drop constraint "discovery_sources_deliver_check";`);
    this.addSql(`alter table "discovery_sources" drop column "schedule", drop column "deliver", drop column "updated_at";`);
    this.addSql(`alter table "discovery_sources" rename column "config" to "options";`);
  }

}
