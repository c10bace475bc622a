import { Migration } from '@mikro-orm/migrations';

/**
 * What uptime is told from: each wall's and kiosk's connections (from registering to leaving),
 * and each stream's health changes. A stream's present health is its first change, dated when it
 * took that health (health_changed_at): it has held it since. Screens start unknown.
 */
export class Migration20261124191000_uptime extends Migration {

  override name = 'Migration20261124191000_uptime';

  override up(): void | Promise<void> {
    this.addSql(`create table "screen_sessions" ("id" bigserial primary key, "screen_key" text not null, "socket_id" text not null, "node" text not null, "started_at" timestamptz not null, "ended_at" timestamptz null, "last_seen_at" timestamptz not null);`);
    this.addSql(`create index "screen_sessions_socket_idx" on "screen_sessions" ("socket_id");`);
    this.addSql(`create index "screen_sessions_key_started_idx" on "screen_sessions" ("screen_key", "started_at");`);

    this.addSql(`create table "stream_health_changes" ("id" bigserial primary key, "stream_id" int not null, "at" timestamptz not null, "health" text not null, constraint "stream_health_changes_health_check" check ("health" in ('unknown', 'live', 'degraded', 'offline')));`);
    this.addSql(`alter table "stream_health_changes" add constraint "stream_health_changes_stream_id_foreign" foreign key ("stream_id") references "streams" ("id") on update cascade on delete cascade;`);
    this.addSql(`create index "stream_health_changes_stream_at_idx" on "stream_health_changes" ("stream_id", "at");`);
    this.addSql(`insert into "stream_health_changes" ("stream_id", "at", "health") select "id", coalesce("health_changed_at", now()), "health" from "streams" where "health" <> 'unknown';`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "stream_health_changes";`);
    this.addSql(`drop table if exists "screen_sessions";`);
  }

}
