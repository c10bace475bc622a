import { Migration } from '@mikro-orm/migrations';

/**
 * Proof of play at venue scale (issue 42): totals instead of raw records. A position that shows
 * one camera all day wrote 1,440 rows a day to `play_records`; now each report adds to
 *
 * - `play_quarters`: seconds per quarter hour (UTC instants, so every allowed time zone's days
 *   are whole quarters), screen, position and stream — the lasting truth, partitioned by UTC day
 *   (`play_quarters_pYYYYMMDD`, made by `play_quarters_partition(day)`), so retention drops a
 *   day's partition instead of deleting rows;
 * - `play_days`: the same per day in `play_day_zone`'s zone, screen and stream (with the stream's
 *   name, which outlives a deleted stream) — what the Proof of play tab and its CSV read; rebuilt
 *   from the quarters when the zone changes;
 * - `play_positions`: where each screen's kept time ends per position (the overlap rule's input,
 *   which was read from the raw rows); `play_screens`: each screen's number, newest name and kind.
 *
 * A record counts in the quarter (and day) it starts in, as the raw records counted in the day they
 * started: screens cut records at whole minutes, so none crosses one. The raw records already kept
 * are folded in here (days in UTC until the server rebuilds them in its zone), and their table goes.
 */
export class Migration20261127220000_play_rollups extends Migration {

  override name = 'Migration20261127220000_play_rollups';

  override up(): void | Promise<void> {
    this.addSql(`create table "play_screens" ("id" serial primary key, "device" text not null unique, "name" text null, "kind" text not null check ("kind" in ('wall', 'kiosk')), "seen_at" timestamptz not null);`);
    this.addSql(`create table "play_positions" ("screen" int not null references "play_screens" ("id") on delete cascade, "position" smallint not null check ("position" between 1 and 5), "kept_until" timestamptz not null, primary key ("screen", "position"));`);
    // No foreign key to play_screens: a screen is forgotten only after its last partition was dropped
    // (checking one would scan every partition per screen).
    this.addSql(`create table "play_quarters" ("quarter" timestamptz not null, "screen" int not null, "position" smallint not null, "stream" int not null, "ms" int not null, "playing" int not null,
      primary key ("quarter", "screen", "position", "stream"),
      check ("position" between 1 and 5 and "ms" > 0 and "playing" between 0 and "ms")) partition by range ("quarter");`);
    this.addSql(`create table "play_days" ("day" date not null, "screen" int not null references "play_screens" ("id") on delete cascade, "stream" int not null, "stream_name" text not null, "ms" bigint not null, "playing" bigint not null,
      primary key ("day", "screen", "stream"), check ("ms" > 0 and "playing" between 0 and "ms"));`);
    this.addSql(`create table "play_day_zone" ("zone" text primary key);`);
    this.addSql(`create unique index "play_day_zone_one_row" on "play_day_zone" ((true));`);
    this.addSql(`insert into "play_day_zone" ("zone") values ('UTC');`);
    // One UTC day's partition, made once however many nodes ask at the same moment.
    this.addSql(`create function "play_quarters_partition"("day" date) returns void language plpgsql as $$
      declare name text := 'play_quarters_p' || to_char("day", 'YYYYMMDD');
      begin
        if to_regclass(quote_ident(name)) is not null then return; end if;
        perform pg_advisory_xact_lock(hashtext('nature-wall:play-partitions'));
        if to_regclass(quote_ident(name)) is not null then return; end if;
        execute format('create table %I partition of "play_quarters" for values from (%L) to (%L)', name, "day"::text || ' 00:00:00+00', ("day" + 1)::text || ' 00:00:00+00');
      exception when duplicate_table then
        -- Made by another node a moment ago (this statement's view of the catalog predates it).
        null;
      end $$;`);

    // What was kept before this release.
    this.addSql(`insert into "play_screens" ("device", "name", "kind", "seen_at")
      select distinct on ("device") "device", "screen_name", "screen_kind", "ended_at" from "play_records" order by "device", "ended_at" desc;`);
    this.addSql(`insert into "play_positions" ("screen", "position", "kept_until")
      select s."id", r."position", max(r."ended_at") from "play_records" r join "play_screens" s on s."device" = r."device" group by 1, 2;`);
    // A stream deleted before this release has no id left: each such name gets one of its own, below zero.
    this.addSql(`create table "play_gone" as
      select "stream_name", -(row_number() over (order by "stream_name"))::int as "id" from (select distinct "stream_name" from "play_records" where "stream_id" is null) n;`);
    this.addSql(`select "play_quarters_partition"(d) from (select distinct ("started_at" at time zone 'UTC')::date as d from "play_records") days;`);
    this.addSql(`insert into "play_quarters" ("quarter", "screen", "position", "stream", "ms", "playing")
      select to_timestamp(floor(extract(epoch from r."started_at") / 900) * 900), s."id", r."position", coalesce(r."stream_id", g."id"),
        sum(round(extract(epoch from r."ended_at" - r."started_at") * 1000)), sum(least(r."playing_ms", round(extract(epoch from r."ended_at" - r."started_at") * 1000)))
      from "play_records" r join "play_screens" s on s."device" = r."device" left join "play_gone" g on r."stream_id" is null and g."stream_name" = r."stream_name"
      group by 1, 2, 3, 4;`);
    this.addSql(`insert into "play_days" ("day", "screen", "stream", "stream_name", "ms", "playing")
      select (r."started_at" at time zone 'UTC')::date, s."id", coalesce(r."stream_id", g."id"), (array_agg(r."stream_name" order by r."ended_at" desc))[1],
        sum(round(extract(epoch from r."ended_at" - r."started_at") * 1000)), sum(least(r."playing_ms", round(extract(epoch from r."ended_at" - r."started_at") * 1000)))
      from "play_records" r join "play_screens" s on s."device" = r."device" left join "play_gone" g on r."stream_id" is null and g."stream_name" = r."stream_name"
      group by 1, 2, 3;`);
    this.addSql(`drop table "play_gone", "play_records";`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "play_days", "play_quarters", "play_positions", "play_screens", "play_day_zone" cascade;`);
    this.addSql(`drop function if exists "play_quarters_partition"(date);`);
    this.addSql(`create table "play_records" ("id" bigserial primary key, "device" text not null, "screen_name" text null, "screen_kind" text not null, "stream_id" int null references "streams" ("id") on update cascade on delete set null, "stream_name" text not null, "scene_id" int null, "position" smallint not null, "started_at" timestamptz not null, "ended_at" timestamptz not null, "playing_ms" int not null, "received_at" timestamptz not null default now());`);
  }

}
