import { Migration } from '@mikro-orm/migrations';

export class Migration20261122161350_realtime extends Migration {

  override name = 'Migration20261122161350_realtime';

  override up(): void | Promise<void> {
    this.addSql(`create table "socket_io_attachments" ("id" bigserial primary key, "created_at" timestamptz null default now(), "payload" bytea null);`);
    // Versions of screen pushes: one cluster-wide counter, so a late push never rolls a screen back.
    this.addSql(`create sequence if not exists "screen_push_version" as bigint;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "socket_io_attachments" cascade;`);
    this.addSql(`drop sequence if exists "screen_push_version";`);
  }

}
