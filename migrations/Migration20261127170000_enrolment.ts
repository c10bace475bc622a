import { Migration } from '@mikro-orm/migrations';

/**
 * Enrolment (issue 41): approved screens and browsers waiting for approval. Screens known when
 * this ships are approved here, so an upgrade takes no wall dark: each (device, kind, kiosk
 * position) seen in the last day (screen_sightings), connected in the last 8 days (screen_sessions,
 * whose key carries device, kind and position) or with proof of play in the last 90 days
 * (play_records: device and name) — its latest name wins, else "Wall" / "Kiosk N". A wall only
 * counts when it was installed as one (a name other than the pages' own, a group, or proof of
 * play): a visitor's browser on the public viewer is not a screen. Each is handed its credential
 * the next time it connects (enrolment.service.ts claimMigrated); its group stays its device's placement.
 */
/** The screens known at the upgrade, approved — once: a screen already enrolled is left alone (exported for its test). */
export const APPROVE_KNOWN_SCREENS = `
      insert into "enrolled_screens" ("device", "kind", "name", "position", "source", "approved_by")
      select device, kind,
        coalesce((array_agg(name order by seen desc) filter (where name is not null))[1], case when kind = 'kiosk' then 'Kiosk ' || position else 'Wall' end),
        position, 'migrated', 'migration'
      from (
        select device, kind, nullif(btrim(name), '') as name, case when kind = 'kiosk' then position end as position, last_seen_at as seen, false as played
          from screen_sightings where device is not null and kind in ('wall', 'kiosk')
        union all
        select split_part(device, '#', 1), screen_kind, nullif(btrim(screen_name), ''), case when screen_kind = 'kiosk' then position end, ended_at, true
          from play_records where device ~ '^[A-Za-z0-9_-]{8,64}(#kiosk-[1-5])?$' and screen_kind in ('wall', 'kiosk')
        union all
        select split_part(screen_key, ':', 1), split_part(screen_key, ':', 2), null, nullif(split_part(screen_key, ':', 4), '')::smallint, coalesce(ended_at, last_seen_at), false
          from screen_sessions where screen_key ~ '^[A-Za-z0-9_-]{8,64}:(wall|kiosk):[^:]*:[1-5]?$'
      ) known
      where (kind = 'kiosk' and position between 1 and 5) or kind = 'wall'
      group by device, kind, position
      having not exists (select 1 from enrolled_screens e where e.device = known.device and e.kind = known.kind and e.position is not distinct from known.position)
        and (kind = 'kiosk'
          or bool_or(played)
          or bool_or(name is not null and name not in ('Scene viewer', 'Live Wall'))
          or exists (select 1 from screen_placements sp where sp.device = known.device and sp.group_id is not null));`;

export class Migration20261127170000_enrolment extends Migration {

  override name = 'Migration20261127170000_enrolment';

  override up(): void | Promise<void> {
    this.addSql(`create table "enrolled_screens" ("id" serial primary key, "device" text not null, "kind" text not null, "name" text not null, "position" smallint null, "credential_hash" text null, "source" text not null, "approved_at" timestamptz not null default now(), "approved_by" text not null, "revoked_at" timestamptz null, "revoked_by" text null);`);
    this.addSql(`create index "enrolled_screens_device_idx" on "enrolled_screens" ("device");`);
    this.addSql(`alter table "enrolled_screens" add constraint "enrolled_screens_credential_unique" unique ("credential_hash");`);
    this.addSql(`alter table "enrolled_screens" add constraint "enrolled_screens_kind_check" check (kind in ('wall', 'kiosk'));`);
    this.addSql(`alter table "enrolled_screens" add constraint "enrolled_screens_source_check" check (source in ('paired', 'migrated'));`);
    this.addSql(`alter table "enrolled_screens" add constraint "enrolled_screens_position_check" check ((kind = 'kiosk') = (position is not null));`);

    this.addSql(`create table "screen_pairings" ("id" serial primary key, "code" text not null, "credential_hash" text not null, "device" text null, "kind" text not null, "position" smallint null, "name" text null, "group_slug" text null, "address" text not null, "user_agent" text null, "created_at" timestamptz not null default now(), "expires_at" timestamptz not null);`);
    this.addSql(`alter table "screen_pairings" add constraint "screen_pairings_code_unique" unique ("code");`);
    this.addSql(`alter table "screen_pairings" add constraint "screen_pairings_credential_unique" unique ("credential_hash");`);
    this.addSql(`create index "screen_pairings_address_idx" on "screen_pairings" ("address");`);
    this.addSql(`create index "screen_pairings_expires_idx" on "screen_pairings" ("expires_at");`);

    this.addSql(APPROVE_KNOWN_SCREENS);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "screen_pairings" cascade;`);
    this.addSql(`drop table if exists "enrolled_screens" cascade;`);
  }

}
