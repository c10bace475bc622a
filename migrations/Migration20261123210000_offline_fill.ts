import { Migration } from '@mikro-orm/migrations';

/**
 * Recent and ranked scenes fill what their healthy streams cannot with the best offline ones
 * (scene-queries.ts). Without an index of its own that fill scanned every active stream on each
 * resolution — the hot path of every push. Partial indexes, one per order, keep it a few rows.
 */
export class Migration20261123210000_offline_fill extends Migration {

  override name = 'Migration20261123210000_offline_fill';

  override up(): void | Promise<void> {
    this.addSql(`create index "streams_offline_recent_idx" on "streams" ("created_at" desc, "id" desc) where "active" and "health" = 'offline';`);
    this.addSql(`create index "streams_offline_ranked_idx" on "streams" ("quality_score" desc nulls last, "created_at" desc, "id" desc) where "active" and "health" = 'offline';`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index "streams_offline_ranked_idx";`);
    this.addSql(`drop index "streams_offline_recent_idx";`);
  }

}
