import { Migration } from '@mikro-orm/migrations';

/** The stream table sorts by category (then name) on the server too: a keyset index for that order. */
export class Migration20261123220000_stream_table extends Migration {

  override name = 'Migration20261123220000_stream_table';

  override up(): void | Promise<void> {
    this.addSql(`create index "streams_category_keyset_idx" on "streams" (("category" || chr(1) || lower("name")), "id");`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index "streams_category_keyset_idx";`);
  }

}
