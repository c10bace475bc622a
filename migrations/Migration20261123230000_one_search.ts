import { Migration } from '@mikro-orm/migrations';

/**
 * One search rule for every stream search (the table, the scene editor's available streams):
 * name, place, category and address. The category joins the generated column the trigram
 * index reads, so the console needs no second, client-side rule.
 */
export class Migration20261123230000_one_search extends Migration {

  override name = 'Migration20261123230000_one_search';

  override up(): void | Promise<void> {
    this.addSql(`drop index "streams_search_trgm_idx";`);
    this.addSql(`alter table "streams" drop column "search_text";`);
    this.addSql(`alter table "streams" add "search_text" text generated always as (lower("name" || ' ' || coalesce("location_name", '') || ' ' || "category" || ' ' || "url")) stored;`);
    this.addSql(`create index "streams_search_trgm_idx" on "streams" using gin ("search_text" gin_trgm_ops);`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index "streams_search_trgm_idx";`);
    this.addSql(`alter table "streams" drop column "search_text";`);
    this.addSql(`alter table "streams" add "search_text" text generated always as (lower("name" || ' ' || coalesce("location_name", '') || ' ' || "url")) stored;`);
    this.addSql(`create index "streams_search_trgm_idx" on "streams" using gin ("search_text" gin_trgm_ops);`);
  }

}
