import { Migration } from '@mikro-orm/migrations';

/** What a stream's last check found, so a degraded stream says why on screen (frozen, black…). */
export class Migration20261124180000_health_faults extends Migration {

  override name = 'Migration20261124180000_health_faults';

  override up(): void | Promise<void> {
    this.addSql(`alter table "streams" add column "health_faults" jsonb not null default '[]'::jsonb;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "streams" drop column "health_faults";`);
  }

}
