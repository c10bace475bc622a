import { Migration } from '@mikro-orm/migrations';

/** A scene that follows the sun: the `daylight` selection algorithm. */
export class Migration20261124170000_daylight extends Migration {

  override name = 'Migration20261124170000_daylight';

  override up(): void | Promise<void> {
    this.addSql(`alter table "scenes" drop constraint "scenes_selection_algorithm_check";`);
    this.addSql(`alter table "scenes" add constraint "scenes_selection_algorithm_check" check ("selection_algorithm" in ('manual', 'ranked', 'recent', 'daylight'));`);
    // The daylight scene's candidates: healthy active streams with coordinates, best first.
    this.addSql(`create index "streams_daylight_candidates_idx" on "streams" ("quality_score" desc nulls last, "id" desc) where "active" and "health" <> 'offline' and "latitude" is not null and "longitude" is not null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index if exists "streams_daylight_candidates_idx";`);
    this.addSql(`alter table "scenes" drop constraint "scenes_selection_algorithm_check";`);
    this.addSql(`alter table "scenes" add constraint "scenes_selection_algorithm_check" check ("selection_algorithm" in ('manual', 'ranked', 'recent'));`);
  }

}
