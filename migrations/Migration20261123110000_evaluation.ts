import { Migration } from '@mikro-orm/migrations';

/**
 * Human evaluation: the queue raters draw from (one pending item per stream, leased for two
 * minutes to whoever drew it), every rating or skip, and on each stream both halves of its
 * quality — the automatic analysis and the reliability-weighted human score — beside the fused
 * `quality_score` (the per-stream aggregate, kept current by the evaluation module).
 */
export class Migration20261123110000_evaluation extends Migration {

  override name = 'Migration20261123110000_evaluation';

  override up(): void | Promise<void> {
    this.addSql(`create table "evaluation_queue" ("id" serial primary key, "stream_id" int not null, "priority" int not null default 50, "reason" text not null, "status" text not null default 'pending', "assigned_to" text null, "assigned_at" timestamptz null, "created_at" timestamptz not null default now(), "completed_at" timestamptz null);`);
    this.addSql(`alter table "evaluation_queue" add constraint "evaluation_queue_stream_id_foreign" foreign key ("stream_id") references "streams" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "evaluation_queue" add constraint "evaluation_queue_status_check" check ("status" in ('pending', 'done'));`);
    this.addSql(`create unique index "evaluation_queue_one_pending_per_stream" on "evaluation_queue" ("stream_id") where "status" = 'pending';`);
    this.addSql(`create index "evaluation_queue_pending_priority_idx" on "evaluation_queue" ("priority" desc, "created_at") where "status" = 'pending';`);
    this.addSql(`create table "human_quality_evaluations" ("id" serial primary key, "queue_id" int null, "stream_id" int not null, "evaluator_id" text not null, "video_quality" smallint null, "movement" smallint null, "content" smallint null, "audio" smallint null, "overall" smallint null, "skipped" boolean not null default false, "duration_ms" int null, "created_at" timestamptz not null default now());`);
    this.addSql(`alter table "human_quality_evaluations" add constraint "human_quality_evaluations_queue_id_foreign" foreign key ("queue_id") references "evaluation_queue" ("id") on update cascade on delete set null;`);
    this.addSql(`alter table "human_quality_evaluations" add constraint "human_quality_evaluations_stream_id_foreign" foreign key ("stream_id") references "streams" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "human_quality_evaluations" add constraint "human_quality_evaluations_ratings_check" check (skipped or (overall between 1 and 5 and video_quality between 1 and 5 and movement between 1 and 5 and content between 1 and 5 and (audio is null or audio between 1 and 5)));`);
    this.addSql(`create unique index "human_quality_evaluations_once" on "human_quality_evaluations" ("queue_id", "evaluator_id");`);
    this.addSql(`create index "human_quality_evaluations_evaluator_idx" on "human_quality_evaluations" ("evaluator_id", "created_at" desc);`);
    this.addSql(`create index "human_quality_evaluations_stream_idx" on "human_quality_evaluations" ("stream_id", "created_at" desc);`);
    this.addSql(`alter table "streams" add "auto_score" double precision null, add "auto_confidence" double precision null, add "human_score" double precision null, add "human_confidence" double precision null, add "human_count" int not null default 0;`);
    // Until now quality_score was the automatic score alone.
    this.addSql(`update "streams" set "auto_score" = "quality_score", "auto_confidence" = "quality_confidence";`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "streams" drop column "auto_score", drop column "auto_confidence", drop column "human_score", drop column "human_confidence", drop column "human_count";`);
    this.addSql(`drop table "human_quality_evaluations";`);
    this.addSql(`drop table "evaluation_queue";`);
  }

}
