import { Migration } from '@mikro-orm/migrations';

/** Alerts: rules (one per kind to start with), destinations, incidents and deliveries. */
export class Migration20261124192000_alerts extends Migration {

  override name = 'Migration20261124192000_alerts';

  override up(): void | Promise<void> {
    this.addSql(`create table "alert_rules" (
      "id" serial primary key,
      "kind" text not null check ("kind" in ('screen_offline', 'stream_unhealthy', 'discovery_failed', 'analysis_failures', 'database_unavailable')),
      "enabled" boolean not null default true,
      "group_id" int null references "screen_groups" ("id") on delete cascade,
      "for_seconds" double precision not null check ("for_seconds" >= 0),
      "hold_seconds" double precision not null check ("hold_seconds" >= 0),
      "threshold" double precision null,
      "created_at" timestamptz not null default now(),
      check ("group_id" is null or "kind" = 'screen_offline')
    );`);
    this.addSql(`create unique index "alert_rules_kind_group_unique" on "alert_rules" ("kind", coalesce("group_id", 0));`);
    this.addSql(`insert into "alert_rules" ("kind", "for_seconds", "hold_seconds", "threshold") values
      ('screen_offline', 300, 60, null),
      ('stream_unhealthy', 120, 120, null),
      ('discovery_failed', 0, 0, null),
      ('analysis_failures', 0, 600, 50),
      ('database_unavailable', 30, 0, null);`);
    this.addSql(`create table "alert_destinations" (
      "id" serial primary key,
      "name" text not null check (btrim("name") <> ''),
      "kind" text not null check ("kind" in ('webhook', 'slack', 'discord')),
      "url" text not null,
      "secret" text null,
      "enabled" boolean not null default true,
      "created_at" timestamptz not null default now()
    );`);
    this.addSql(`create table "alert_incidents" (
      "id" serial primary key,
      "rule_id" int not null references "alert_rules" ("id") on delete cascade,
      "kind" text not null,
      "subject" text not null,
      "title" text not null,
      "detail" text null,
      "phase" text not null check ("phase" in ('pending', 'open', 'clearing', 'resolved')),
      "started_at" timestamptz not null,
      "fired_at" timestamptz null,
      "cleared_at" timestamptz null,
      "resolved_at" timestamptz null
    );`);
    // One live incident per rule and subject, whichever node evaluates.
    this.addSql(`create unique index "alert_incidents_live_unique" on "alert_incidents" ("rule_id", "subject") where "phase" <> 'resolved';`);
    this.addSql(`create index "alert_incidents_resolved_idx" on "alert_incidents" ("resolved_at" desc) where "phase" = 'resolved';`);
    this.addSql(`create table "alert_deliveries" (
      "id" serial primary key,
      "incident_id" int null references "alert_incidents" ("id") on delete set null,
      "destination_id" int null references "alert_destinations" ("id") on delete set null,
      "destination_name" text not null,
      "event" text not null check ("event" in ('fired', 'recovered', 'test')),
      "state" text not null default 'pending' check ("state" in ('pending', 'sent', 'failed')),
      "attempts" int not null default 0,
      "status_code" int null,
      "answer" text null,
      "message" jsonb not null,
      "job_id" uuid not null unique,
      "created_at" timestamptz not null default now(),
      "finished_at" timestamptz null
    );`);
    this.addSql(`create index "alert_deliveries_created_idx" on "alert_deliveries" ("created_at" desc);`);
    this.addSql(`create index "alert_deliveries_pending_idx" on "alert_deliveries" ("created_at") where "state" = 'pending';`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "alert_deliveries";`);
    this.addSql(`drop table if exists "alert_incidents";`);
    this.addSql(`drop table if exists "alert_destinations";`);
    this.addSql(`drop table if exists "alert_rules";`);
  }

}
