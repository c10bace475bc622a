import { Migration } from '@mikro-orm/migrations';

/**
 * Proof of play's refusals, stored per screen and reason (issue 41): the console's figure was a
 * per-node counter that reset at every restart.
 */
export class Migration20261127180000_play_refusals extends Migration {

  override name = 'Migration20261127180000_play_refusals';

  override up(): void | Promise<void> {
    this.addSql(`create table "play_refusals" ("device" text not null, "reason" text not null, "screen_name" text null, "count" int not null, "last_at" timestamptz not null, primary key ("device", "reason"));`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "play_refusals" cascade;`);
  }

}
