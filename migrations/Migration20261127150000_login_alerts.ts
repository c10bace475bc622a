import { Migration } from '@mikro-orm/migrations';

/**
 * Accounts whose sign-ins fail from many addresses at once (src/modules/auth/login-alarms.ts),
 * and the alert rule that watches them (`login_failures`).
 */
export class Migration20261127150000_login_alerts extends Migration {

  override name = 'Migration20261127150000_login_alerts';

  override up(): void | Promise<void> {
    this.addSql(`create table "login_failing_accounts" ("user_id" int not null primary key references "admin_users" ("id") on update cascade on delete cascade, "since" timestamptz not null default now(), "last_at" timestamptz not null default now());`);
    this.addSql(`alter table "alert_rules" drop constraint "alert_rules_kind_check";`);
    this.addSql(`alter table "alert_rules" add constraint "alert_rules_kind_check" check ("kind" in ('screen_offline', 'stream_unhealthy', 'discovery_failed', 'analysis_failures', 'database_unavailable', 'login_failures'));`);
    this.addSql(`insert into "alert_rules" ("kind", "for_seconds", "hold_seconds", "threshold") values ('login_failures', 0, 900, null) on conflict do nothing;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`delete from "alert_rules" where "kind" = 'login_failures';`);
    this.addSql(`alter table "alert_rules" drop constraint "alert_rules_kind_check";`);
    this.addSql(`alter table "alert_rules" add constraint "alert_rules_kind_check" check ("kind" in ('screen_offline', 'stream_unhealthy', 'discovery_failed', 'analysis_failures', 'database_unavailable'));`);
    this.addSql(`drop table "login_failing_accounts";`);
  }

}
