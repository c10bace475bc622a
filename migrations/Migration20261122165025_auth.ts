import { Migration } from '@mikro-orm/migrations';

export class Migration20261122165025_auth extends Migration {

  override name = 'Migration20261122165025_auth';

  override up(): void | Promise<void> {
    this.addSql(`create table "admin_users" ("id" serial primary key, "username" text not null, "password_hash" text not null, "created_at" timestamptz not null default now(), "last_login_at" timestamptz null);`);
    this.addSql(`alter table "admin_users" add constraint "admin_users_username_unique" unique ("username");`);

    this.addSql(`create table "admin_sessions" ("token_hash" text not null, "user_id" int not null, "created_at" timestamptz not null default now(), "expires_at" timestamptz not null, primary key ("token_hash"));`);
    this.addSql(`create index "admin_sessions_user_idx" on "admin_sessions" ("user_id");`);
    this.addSql(`create index "admin_sessions_expires_idx" on "admin_sessions" ("expires_at");`);

    this.addSql(`create table "api_tokens" ("id" serial primary key, "name" text not null, "token_hash" text not null, "created_by_id" int null, "created_at" timestamptz not null default now(), "last_used_at" timestamptz null);`);
    this.addSql(`alter table "api_tokens" add constraint "api_tokens_token_hash_unique" unique ("token_hash");`);

    this.addSql(`alter table "admin_users" add constraint "admin_users_username_check" check (username ~ '^[a-z0-9._-]{1,64}$');`);

    this.addSql(`alter table "admin_sessions" add constraint "admin_sessions_user_id_foreign" foreign key ("user_id") references "admin_users" ("id") on delete cascade;`);

    this.addSql(`alter table "api_tokens" add constraint "api_tokens_created_by_id_foreign" foreign key ("created_by_id") references "admin_users" ("id") on delete set null;`);
    this.addSql(`alter table "api_tokens" add constraint "api_tokens_name_check" check (btrim(name) <> '');`);

    // rate-limiter-flexible's shared counters when several nodes run (its own layout).
    this.addSql(`create table if not exists "rate_limits" ("key" varchar(255) primary key, "points" integer not null default 0, "expire" bigint);`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "admin_sessions" drop constraint "admin_sessions_user_id_foreign";`);
    this.addSql(`alter table "api_tokens" drop constraint "api_tokens_created_by_id_foreign";`);

    this.addSql(`drop table if exists "admin_users" cascade;`);
    this.addSql(`drop table if exists "admin_sessions" cascade;`);
    this.addSql(`drop table if exists "api_tokens" cascade;`);
    this.addSql(`drop table if exists "rate_limits";`);
  }

}
