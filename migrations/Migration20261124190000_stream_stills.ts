import { Migration } from '@mikro-orm/migrations';

/**
 * A current still per stream (a frame of its latest analysis, or its platform's thumbnail),
 * served from our origin: one row a stream, gone with it. JPEG and WebP bytes do not compress,
 * so they are stored out of line without a compression attempt (EXTERNAL).
 */
export class Migration20261124190000_stream_stills extends Migration {

  override name = 'Migration20261124190000_stream_stills';

  override up(): void | Promise<void> {
    this.addSql(`create table "stream_stills" ("stream_id" int not null, "content_type" text not null, "bytes" bytea not null, "width" int not null, "height" int not null, "taken_at" timestamptz not null, constraint "stream_stills_pkey" primary key ("stream_id"));`);
    this.addSql(`alter table "stream_stills" add constraint "stream_stills_stream_id_foreign" foreign key ("stream_id") references "streams" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "stream_stills" add constraint "stream_stills_content_type_check" check ("content_type" in ('image/jpeg', 'image/webp', 'image/png'));`);
    this.addSql(`alter table "stream_stills" add constraint "stream_stills_size_check" check (width > 0 and height > 0 and octet_length(bytes) <= 1048576);`);
    this.addSql(`alter table "stream_stills" alter column "bytes" set storage external;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table "stream_stills";`);
  }

}
