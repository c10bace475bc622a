import { Migration } from '@mikro-orm/migrations';

/**
 * What each screen was told to show, from which instant (issue 41): proof of play counts only
 * what was assigned. Starts empty — nothing before this release recorded it; a screen's first row
 * is written when it next registers (docs/operations.md says what that means for records
 * a screen kept from before the upgrade).
 */
export class Migration20261127190000_play_assignments extends Migration {

  override name = 'Migration20261127190000_play_assignments';

  override up(): void | Promise<void> {
    this.addSql(`create table "play_assignments" ("screen" text not null, "from_at" timestamptz not null, "scene_id" int null, "streams" int[] not null, primary key ("screen", "from_at"));`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "play_assignments" cascade;`);
  }

}
