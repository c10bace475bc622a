import { Migration } from '@mikro-orm/migrations';

/**
 * The judgement model at scale (issue 42, item 5): a settling fits the newest answers one by one
 * and what the older ones taught as a summary — each stream's evidence as a Gaussian on its quality
 * (`judgement_items`), each rater's record (`judgement_raters`) — so its cost does not grow with
 * the history. `judgement_folds` says up to which answer of each kind is summed there
 * (src/modules/evaluation/judgement-history.ts). Starts empty: the first settling folds what is
 * past its window.
 */
export class Migration20261127230000_judgement_history extends Migration {

  override name = 'Migration20261127230000_judgement_history';

  override up(): void | Promise<void> {
    this.addSql(`create table "judgement_items" ("stream_id" int primary key references "streams" ("id") on update cascade on delete cascade, "mean" double precision not null, "precision" double precision not null check ("precision" >= 0), "count" int not null);`);
    this.addSql(`create table "judgement_raters" ("evaluator_id" text primary key, "answers" int not null, "squared" double precision not null, "deviation" double precision not null);`);
    this.addSql(`create table "judgement_folds" ("kind" text primary key check ("kind" in ('rating', 'comparison')), "last_id" int not null);`);
    this.addSql(`insert into "judgement_folds" ("kind", "last_id") values ('rating', 0), ('comparison', 0);`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "judgement_items", "judgement_raters", "judgement_folds";`);
  }

}
