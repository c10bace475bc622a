import { Migration } from '@mikro-orm/migrations';

/**
 * How screens start and sync each direct stream, chosen by its analysis from its playlist
 * (the shared latency behind program date-time, the variant to start at): one choice, sent to
 * every screen with the stream.
 */
export class Migration20261124150000_stream_playback extends Migration {

  override name = 'Migration20261124150000_stream_playback';

  override up(): void | Promise<void> {
    this.addSql(`alter table "streams" add column "playback" jsonb null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "streams" drop column "playback";`);
  }

}
