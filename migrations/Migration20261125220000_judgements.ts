import { Migration } from '@mikro-orm/migrations';

/**
 * Raters that cannot be gamed: queue items of three kinds — a stream to rate, a check for a new
 * rater (a stream whose answer is established), or a pair to compare ("which looks better?") —
 * leased to one rater each; comparisons are kept beside the ratings.
 */
export class Migration20261125220000_judgements extends Migration {

  override name = 'Migration20261125220000_judgements';

  override up(): void | Promise<void> {
    this.addSql(`alter table "evaluation_queue" add column "kind" text not null default 'rate', add column "partner_stream_id" int null;`);
    this.addSql(`alter table "evaluation_queue" add constraint "evaluation_queue_kind_check" check ("kind" in ('rate', 'check', 'compare') and (("kind" = 'compare') = ("partner_stream_id" is not null)));`);
    this.addSql(`alter table "evaluation_queue" add constraint "evaluation_queue_partner_stream_id_foreign" foreign key ("partner_stream_id") references "streams" ("id") on update cascade on delete cascade;`);
    this.addSql(`drop index "evaluation_queue_one_pending_per_stream";`);
    this.addSql(`create unique index "evaluation_queue_one_pending_per_stream" on "evaluation_queue" ("stream_id") where "status" = 'pending' and "kind" = 'rate';`);
    this.addSql(`create unique index "evaluation_queue_one_pending_per_pair" on "evaluation_queue" (least("stream_id", "partner_stream_id"), greatest("stream_id", "partner_stream_id")) where "status" = 'pending' and "kind" = 'compare';`);
    this.addSql(`create table "pairwise_evaluations" ("id" serial primary key, "queue_id" int null, "left_stream_id" int not null, "right_stream_id" int not null, "evaluator_id" text not null, "choice" text not null, "duration_ms" int null, "created_at" timestamptz not null default now());`);
    this.addSql(`alter table "pairwise_evaluations" add constraint "pairwise_evaluations_queue_id_foreign" foreign key ("queue_id") references "evaluation_queue" ("id") on update cascade on delete set null;`);
    this.addSql(`alter table "pairwise_evaluations" add constraint "pairwise_evaluations_left_stream_id_foreign" foreign key ("left_stream_id") references "streams" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "pairwise_evaluations" add constraint "pairwise_evaluations_right_stream_id_foreign" foreign key ("right_stream_id") references "streams" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "pairwise_evaluations" add constraint "pairwise_evaluations_choice_check" check ("choice" in ('left', 'right', 'same', 'skip') and "left_stream_id" <> "right_stream_id");`);
    this.addSql(`create unique index "pairwise_evaluations_once" on "pairwise_evaluations" ("queue_id", "evaluator_id");`);
    this.addSql(`create index "pairwise_evaluations_evaluator_idx" on "pairwise_evaluations" ("evaluator_id", "created_at" desc);`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table "pairwise_evaluations";`);
    this.addSql(`drop index "evaluation_queue_one_pending_per_pair";`);
    this.addSql(`delete from "evaluation_queue" where "kind" <> 'rate';`);
    this.addSql(`drop index "evaluation_queue_one_pending_per_stream";`);
    this.addSql(`create unique index "evaluation_queue_one_pending_per_stream" on "evaluation_queue" ("stream_id") where "status" = 'pending';`);
    this.addSql(`alter table "evaluation_queue" drop constraint "evaluation_queue_kind_check", drop constraint "evaluation_queue_partner_stream_id_foreign", drop column "kind", drop column "partner_stream_id";`);
  }

}
