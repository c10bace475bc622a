import { Migration } from '@mikro-orm/migrations';

/**
 * Proof of play: what each wall and kiosk showed, per position, from when to when, and how much
 * of it played (src/modules/plays). Indexed for the rules' "where does this screen's kept time
 * end" and for reports by time; a deleted stream leaves its records (with its name).
 */
export class Migration20261126020000_plays extends Migration {

  override name = 'Migration20261126020000_plays';

  override up(): void | Promise<void> {
    this.addSql(`create table "play_records" ("id" bigserial primary key, "device" text not null, "screen_name" text null, "screen_kind" text not null, "stream_id" int null, "stream_name" text not null, "scene_id" int null, "position" smallint not null, "started_at" timestamptz not null, "ended_at" timestamptz not null, "playing_ms" int not null, "received_at" timestamptz not null default now());`);
    this.addSql(`alter table "play_records" add constraint "play_records_stream_id_foreign" foreign key ("stream_id") references "streams" ("id") on update cascade on delete set null;`);
    this.addSql(`alter table "play_records" add constraint "play_records_sane_check" check ("ended_at" > "started_at" and "playing_ms" >= 0 and "playing_ms" <= extract(epoch from "ended_at" - "started_at") * 1000 + 1 and "position" between 1 and 5 and "screen_kind" in ('wall', 'kiosk'));`);
    this.addSql(`create index "play_records_device_position_idx" on "play_records" ("device", "position", "ended_at" desc);`);
    this.addSql(`create index "play_records_started_idx" on "play_records" ("started_at");`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table "play_records";`);
  }

}
