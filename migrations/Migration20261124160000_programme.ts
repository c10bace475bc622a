import { Migration } from '@mikro-orm/migrations';

/**
 * What plays where and when: screen groups, each screen's place (group and own scene, by its
 * lasting device id), schedule entries and the one takeover. Scenes they name cannot be
 * deleted under them (restrict).
 */
export class Migration20261124160000_programme extends Migration {

  override name = 'Migration20261124160000_programme';

  override up(): void | Promise<void> {
    this.addSql(`create table "screen_groups" ("id" serial primary key, "name" text not null, "slug" text not null, "scene_id" int null, "created_at" timestamptz not null default now(), constraint "screen_groups_name_check" check (btrim(name) <> ''));`);
    this.addSql(`alter table "screen_groups" add constraint "screen_groups_name_unique" unique ("name");`);
    this.addSql(`alter table "screen_groups" add constraint "screen_groups_slug_unique" unique ("slug");`);
    this.addSql(`alter table "screen_groups" add constraint "screen_groups_scene_id_foreign" foreign key ("scene_id") references "scenes" ("id") on update cascade on delete restrict;`);

    this.addSql(`create table "screen_placements" ("device" text not null, "group_id" int null, "scene_id" int null, "updated_at" timestamptz not null default now(), constraint "screen_placements_pkey" primary key ("device"));`);
    this.addSql(`create index "screen_placements_group_idx" on "screen_placements" ("group_id");`);
    this.addSql(`alter table "screen_placements" add constraint "screen_placements_group_id_foreign" foreign key ("group_id") references "screen_groups" ("id") on update cascade on delete set null;`);
    this.addSql(`alter table "screen_placements" add constraint "screen_placements_scene_id_foreign" foreign key ("scene_id") references "scenes" ("id") on update cascade on delete restrict;`);

    this.addSql(`create table "schedule_entries" ("id" serial primary key, "name" text null, "scene_id" int not null, "priority" int not null default 0, "target" jsonb not null, "when" jsonb not null, "created_at" timestamptz not null default now(), constraint "schedule_entries_priority_check" check (priority between 0 and 100));`);
    this.addSql(`alter table "schedule_entries" add constraint "schedule_entries_scene_id_foreign" foreign key ("scene_id") references "scenes" ("id") on update cascade on delete restrict;`);

    this.addSql(`create table "takeovers" ("id" int not null, "scene_id" int not null, "banner" text null, "group_ids" jsonb null, "ends_at" timestamptz null, "started_by" text not null, "started_at" timestamptz not null default now(), constraint "takeovers_pkey" primary key ("id"), constraint "takeovers_single_check" check (id = 1));`);
    this.addSql(`alter table "takeovers" add constraint "takeovers_scene_id_foreign" foreign key ("scene_id") references "scenes" ("id") on update cascade on delete restrict;`);

    this.addSql(`create table "programme_boundaries" ("at" timestamptz not null, "applied_at" timestamptz not null default now(), constraint "programme_boundaries_pkey" primary key ("at"));`);

    // Screens' last sightings say which group they were in and which rule decided what they showed.
    this.addSql(`alter table "screen_sightings" add column "group_id" int null, add column "rule" text null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "screen_sightings" drop column "group_id", drop column "rule";`);
    this.addSql(`drop table if exists "programme_boundaries" cascade;`);
    this.addSql(`drop table if exists "takeovers" cascade;`);
    this.addSql(`drop table if exists "schedule_entries" cascade;`);
    this.addSql(`drop table if exists "screen_placements" cascade;`);
    this.addSql(`drop table if exists "screen_groups" cascade;`);
  }

}
