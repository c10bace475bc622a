import { Migration } from '@mikro-orm/migrations';

/**
 * What is happening now: each analysis keeps its activity (local motion above the sample's
 * noise), the camera's local hour and whether it was dark, and a compact fingerprint of what it
 * saw (with the playlist segments it came from and the live edge's program time), so a replayed
 * recording is found; each stream keeps its latest activity against its normal, a short history
 * for the console's sparkline, a looped recording's evidence and the admin's "recording is fine";
 * a ranked scene keeps its picks (stream, since when, why) so a tile changes only when a
 * candidate is clearly better and the tile has been on screen long enough.
 */
export class Migration20261125210000_activity extends Migration {

  override name = 'Migration20261125210000_activity';

  override up(): void | Promise<void> {
    this.addSql(`alter table "streams" add column "activity" real null, add column "activity_ratio" real null, add column "activity_basis" text null, add column "activity_recent" jsonb not null default '[]', add column "looped" jsonb null, add column "recording_ok" boolean not null default false;`);
    this.addSql(`alter table "streams" add constraint "streams_activity_basis_check" check ("activity_basis" in ('own', 'category'));`);
    this.addSql(`alter table "quality_analyses" add column "activity" real null, add column "local_hour" smallint null, add column "dark" boolean null, add column "fingerprint" bytea null, add column "fingerprint_fps" real null, add column "fingerprint_segments" jsonb null, add column "edge_program_time" timestamptz null;`);
    this.addSql(`alter table "quality_analyses" add constraint "quality_analyses_local_hour_check" check ("local_hour" between 0 and 23);`);
    this.addSql(`alter table "quality_analyses" drop constraint "quality_analyses_trigger_check";`);
    this.addSql(`alter table "quality_analyses" add constraint "quality_analyses_trigger_check" check ("trigger" in ('manual', 'all', 'schedule', 'screens', 'recheck', 'discovery', 'ranking'));`);
    this.addSql(`create index "quality_analyses_stream_hour_idx" on "quality_analyses" ("stream_id", "local_hour", "created_at" desc) where "activity" is not null;`);
    this.addSql(`create table "ranked_picks" ("scene_id" int not null, "position" smallint not null, "stream_id" int not null, "since" timestamptz not null default now(), "reason" text not null, primary key ("scene_id", "position"));`);
    this.addSql(`alter table "ranked_picks" add constraint "ranked_picks_scene_id_foreign" foreign key ("scene_id") references "scenes" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "ranked_picks" add constraint "ranked_picks_stream_id_foreign" foreign key ("stream_id") references "streams" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "ranked_picks" add constraint "ranked_picks_position_check" check ("position" between 1 and 5);`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table "ranked_picks";`);
    this.addSql(`drop index "quality_analyses_stream_hour_idx";`);
    this.addSql(`alter table "quality_analyses" drop constraint "quality_analyses_trigger_check";`);
    this.addSql(`delete from "quality_analyses" where "trigger" = 'ranking';`);
    this.addSql(`alter table "quality_analyses" add constraint "quality_analyses_trigger_check" check ("trigger" in ('manual', 'all', 'schedule', 'screens', 'recheck', 'discovery'));`);
    this.addSql(`alter table "quality_analyses" drop constraint "quality_analyses_local_hour_check", drop column "activity", drop column "local_hour", drop column "dark", drop column "fingerprint", drop column "fingerprint_fps", drop column "fingerprint_segments", drop column "edge_program_time";`);
    this.addSql(`alter table "streams" drop constraint "streams_activity_basis_check", drop column "activity", drop column "activity_ratio", drop column "activity_basis", drop column "activity_recent", drop column "looped", drop column "recording_ok";`);
  }

}
