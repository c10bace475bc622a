import { Migration } from '@mikro-orm/migrations';

/**
 * Browsers that have signed in to an account before (src/modules/auth/trusted-devices.ts): a
 * sign-in from one of them is not slowed by other addresses' failures for that account.
 */
export class Migration20261127140000_trusted_devices extends Migration {

  override name = 'Migration20261127140000_trusted_devices';

  override up(): void | Promise<void> {
    this.addSql(`create table "trusted_devices" ("token_hash" text not null, "user_id" int not null, "created_at" timestamptz not null default now(), "last_used_at" timestamptz not null default now(), constraint "trusted_devices_pkey" primary key ("token_hash"));`);
    this.addSql(`create index "trusted_devices_user_idx" on "trusted_devices" ("user_id");`);
    this.addSql(`alter table "trusted_devices" add constraint "trusted_devices_user_id_foreign" foreign key ("user_id") references "admin_users" ("id") on update cascade on delete cascade;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table "trusted_devices";`);
  }

}
