import { Migration } from '@mikro-orm/migrations';

export class Migration20261122154720_init extends Migration {

  override name = 'Migration20261122154720_init';

  override up(): void | Promise<void> {
    this.addSql(`create table "discovery_sources" ("id" serial primary key, "name" text not null, "platform" text not null, "url" text null, "options" jsonb not null default '{}', "active" boolean not null default true, "created_at" timestamptz not null default now());`);
    this.addSql(`alter table "discovery_sources" add constraint "discovery_sources_name_unique" unique ("name");`);
    this.addSql(`alter table "discovery_sources" add constraint "discovery_sources_platform_check" check ("platform" in ('youtube', 'twitch', 'vimeo', 'direct', 'earthcam', 'custom'));`);

    this.addSql(`create table "discovery_jobs" ("id" serial primary key, "source_id" int null, "status" text not null default 'queued', "error_message" text null, "streams_discovered" int not null default 0, "streams_added" int not null default 0, "created_at" timestamptz not null default now(), "finished_at" timestamptz null);`);
    this.addSql(`create index "discovery_jobs_source_idx" on "discovery_jobs" ("source_id");`);
    this.addSql(`create index "discovery_jobs_created_idx" on "discovery_jobs" ("created_at");`);
    this.addSql(`alter table "discovery_jobs" add constraint "discovery_jobs_counts_check" check (streams_discovered >= 0 and streams_added >= 0);`);
    this.addSql(`alter table "discovery_jobs" add constraint "discovery_jobs_status_check" check ("status" in ('queued', 'running', 'completed', 'failed'));`);

    this.addSql(`create table "scenes" ("id" serial primary key, "slug" text null, "name" text not null, "description" text null, "prompt" text null, "selection_algorithm" text not null default 'manual', "max_streams" int not null default 5, "layout_type" text not null default 'grid', "active" boolean not null default true, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now());`);
    this.addSql(`alter table "scenes" add constraint "scenes_slug_unique" unique ("slug");`);
    this.addSql(`alter table "scenes" add constraint "scenes_name_check" check (btrim(name) <> '');`);
    this.addSql(`alter table "scenes" add constraint "scenes_slug_check" check (slug <> '');`);
    this.addSql(`alter table "scenes" add constraint "scenes_max_streams_check" check (max_streams between 1 and 5);`);
    this.addSql(`alter table "scenes" add constraint "scenes_selection_algorithm_check" check ("selection_algorithm" in ('manual', 'ranked', 'recent'));`);
    this.addSql(`alter table "scenes" add constraint "scenes_layout_type_check" check ("layout_type" in ('grid', 'mosaic', 'feature'));`);

    this.addSql(`create table "streams" ("id" serial primary key, "name" text not null, "url" text not null, "normalized_url" text not null, "fallback_url" text null, "description" text null, "category" text not null default 'nature', "quality" text not null default 'hd', "active" boolean not null default true, "quality_score" double precision null, "quality_assessed_at" timestamptz null, "quality_confidence" double precision null, "location_name" text null, "latitude" double precision null, "longitude" double precision null, "timezone" text null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now());`);
    this.addSql(`alter table "streams" add constraint "streams_normalized_url_unique" unique ("normalized_url");`);
    this.addSql(`create index "streams_active_created_idx" on "streams" ("active", "created_at");`);
    this.addSql(`alter table "streams" add constraint "streams_name_check" check (btrim(name) <> '');`);
    this.addSql(`alter table "streams" add constraint "streams_quality_score_check" check (quality_score between 0 and 100);`);
    this.addSql(`alter table "streams" add constraint "streams_quality_confidence_check" check (quality_confidence between 0 and 1);`);
    this.addSql(`alter table "streams" add constraint "streams_latitude_check" check (latitude between -90 and 90);`);
    this.addSql(`alter table "streams" add constraint "streams_longitude_check" check (longitude between -180 and 180);`);
    this.addSql(`alter table "streams" add constraint "streams_url_check" check (url ~* '^https?://');`);
    this.addSql(`alter table "streams" add constraint "streams_category_check" check ("category" in ('nature', 'volcano', 'ocean', 'waterfall', 'wildlife'));`);
    this.addSql(`alter table "streams" add constraint "streams_quality_check" check ("quality" in ('hd', '4k', 'sd'));`);

    this.addSql(`create table "scene_streams" ("id" serial primary key, "scene_id" int not null, "stream_id" int not null, "position" int not null, "manual_priority" int not null default 0);`);
    this.addSql(`create index "scene_streams_stream_idx" on "scene_streams" ("stream_id");`);
    this.addSql(`alter table "scene_streams" add constraint "scene_streams_scene_position_unique" unique ("scene_id", "position");`);
    this.addSql(`alter table "scene_streams" add constraint "scene_streams_scene_stream_unique" unique ("scene_id", "stream_id");`);
    this.addSql(`alter table "scene_streams" add constraint "scene_streams_position_check" check (position between 1 and 5);`);

    this.addSql(`create table "submissions" ("id" serial primary key, "url" text not null, "normalized_url" text not null, "title" text null, "platform" text null, "thumbnail" text null, "submitted_by" text not null default 'anonymous', "status" text not null default 'pending', "created_at" timestamptz not null default now(), "reviewed_at" timestamptz null, "review_note" text null, "stream_id" int null);`);
    this.addSql(`create index "submissions_normalized_url_idx" on "submissions" ("normalized_url");`);
    this.addSql(`create index "submissions_status_created_idx" on "submissions" ("status", "created_at");`);
    this.addSql(`alter table "submissions" add constraint "submissions_status_check" check ("status" in ('pending', 'approved', 'rejected'));`);

    this.addSql(`create table "system_config" ("key" text not null, "value" text not null, "description" text null, "updated_by" text null, "updated_at" timestamptz not null default now(), primary key ("key"));`);

    this.addSql(`alter table "discovery_jobs" add constraint "discovery_jobs_source_id_foreign" foreign key ("source_id") references "discovery_sources" ("id") on delete set null;`);

    this.addSql(`alter table "scene_streams" add constraint "scene_streams_scene_id_foreign" foreign key ("scene_id") references "scenes" ("id") on delete cascade;`);
    this.addSql(`alter table "scene_streams" add constraint "scene_streams_stream_id_foreign" foreign key ("stream_id") references "streams" ("id") on delete cascade;`);

    this.addSql(`alter table "submissions" add constraint "submissions_stream_id_foreign" foreign key ("stream_id") references "streams" ("id") on delete set null;`);

    this.addSql(`create view "discovery_stats" as select s.id as source_id, s.name as source_name, max(j.created_at) as last_run,
  coalesce(sum(j.streams_added), 0)::int as total_added, coalesce(sum(j.streams_discovered), 0)::int as total_discovered
  from discovery_sources s left join discovery_jobs j on j.source_id = s.id group by s.id, s.name;`);
  }

}
