import { Migration } from '@mikro-orm/migrations';

export class Migration20261123040324_submissions extends Migration {

  override name = 'Migration20261123040324_submissions';

  override up(): void | Promise<void> {
    this.addSql(`alter table "submissions" add "reviewed_by" text null;`);
    this.addSql(`create unique index "submissions_pending_unique" on "submissions" ("normalized_url") where "status" = 'pending';`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index "submissions_pending_unique";`);
    this.addSql(`alter table "submissions" drop column "reviewed_by";`);
  }

}
