import { Migration } from '@mikro-orm/migrations';

export class Migration20261123034630_console extends Migration {

  override name = 'Migration20261123034630_console';

  override up(): void | Promise<void> {
    this.addSql(`create table "admin_activity" ("id" serial primary key, "created_at" timestamptz not null default now(), "actor" text not null, "action" text not null, "kind" text not null, "subject_id" int null, "subject_name" text null);`);
    this.addSql(`create index "admin_activity_created_idx" on "admin_activity" ("created_at");`);
    this.addSql(`create index "admin_activity_kind_created_idx" on "admin_activity" ("kind", "created_at");`);

    this.addSql(`create table "screen_sightings" ("key" text not null, "socket_id" text not null, "device" text null, "kind" text not null, "name" text null, "follows" text null, "scene_id" int null, "position" int null, "node" text not null, "health" jsonb not null default '{}', "connected_at" timestamptz not null, "last_seen_at" timestamptz not null, "online" boolean not null default true, primary key ("key"));`);
    this.addSql(`create index "screen_sightings_last_seen_idx" on "screen_sightings" ("last_seen_at");`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "admin_activity" cascade;`);
    this.addSql(`drop table if exists "screen_sightings" cascade;`);
  }

}
