import { Migration } from '@mikro-orm/migrations';

/**
 * Playlists keep their meaning: the request headers an entry needs (a browser cannot send
 * them, so such a stream is stored inactive with the reason), and what each discovery run sent
 * to review, added inactive and skipped, by reason.
 */
export class Migration20261123200000_intake extends Migration {

  override name = 'Migration20261123200000_intake';

  override up(): void | Promise<void> {
    this.addSql(`alter table "streams" add "request_headers" jsonb null, add "inactive_reason" text null;`);
    this.addSql(`alter table "submissions" add "request_headers" jsonb null;`);
    this.addSql(`alter table "discovery_jobs" add "streams_reviewed" int not null default 0, add "streams_inactive" int not null default 0, add "skipped" jsonb not null default '{}'::jsonb;`);
    this.addSql(`create index "submissions_status_id_idx" on "submissions" ("status", "id");`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index "submissions_status_id_idx";`);
    this.addSql(`alter table "discovery_jobs" drop column "streams_reviewed", drop column "streams_inactive", drop column "skipped";`);
    this.addSql(`alter table "submissions" drop column "request_headers";`);
    this.addSql(`alter table "streams" drop column "request_headers", drop column "inactive_reason";`);
  }

}
