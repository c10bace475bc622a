import { Migration } from '@mikro-orm/migrations';

/**
 * A team instead of one kind of account: every account and API token gets a role (those that
 * exist stay admins), accounts can be disabled and wait for their invited person's password,
 * and one-time links (invitations, password resets) are stored by the hash of their secret.
 */
export class Migration20261124200000_team extends Migration {

  override name = 'Migration20261124200000_team';

  override up(): void | Promise<void> {
    this.addSql(`alter table "admin_users" add column "role" text not null default 'admin', add column "disabled_at" timestamptz null, add column "invited_by" text null;`);
    this.addSql(`alter table "admin_users" alter column "password_hash" drop not null;`);
    this.addSql(`alter table "admin_users" add constraint "admin_users_role_check" check ("role" in ('viewer', 'operator', 'curator', 'admin'));`);
    this.addSql(`alter table "api_tokens" add column "role" text not null default 'admin';`);
    this.addSql(`alter table "api_tokens" add constraint "api_tokens_role_check" check ("role" in ('viewer', 'operator', 'curator', 'admin'));`);
    this.addSql(`create table "account_links" ("id" serial primary key, "token_hash" text not null, "user_id" int not null, "purpose" text not null, "created_by" text not null, "created_at" timestamptz not null default now(), "expires_at" timestamptz not null, "used_at" timestamptz null);`);
    this.addSql(`alter table "account_links" add constraint "account_links_token_hash_unique" unique ("token_hash");`);
    this.addSql(`create index "account_links_user_idx" on "account_links" ("user_id");`);
    this.addSql(`alter table "account_links" add constraint "account_links_user_id_foreign" foreign key ("user_id") references "admin_users" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "account_links" add constraint "account_links_purpose_check" check ("purpose" in ('invite', 'reset'));`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table "account_links";`);
    this.addSql(`alter table "api_tokens" drop constraint "api_tokens_role_check", drop column "role";`);
    this.addSql(`alter table "admin_users" drop constraint "admin_users_role_check", drop column "role", drop column "disabled_at", drop column "invited_by";`);
    this.addSql(`alter table "admin_users" alter column "password_hash" set not null;`);
  }

}
