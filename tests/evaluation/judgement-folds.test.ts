/**
 * The score keeper's window and summary on a real database (issue 42, item 5): answers past the
 * newest JUDGED_WINDOW and older than a minute are folded into `judgement_items` /
 * `judgement_raters` once — a second node settling after it folds nothing twice — and the scores
 * settled from the window and the summary rank the streams as the full fit does.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Orm } from '../../src/db.ts';
import { createLogger } from '../../src/logger.ts';
import { JUDGED_WINDOW } from '../../src/modules/evaluation/judgement-history.ts';
import { allAnswers, createScoreKeeper } from '../../src/modules/evaluation/score-keeper.ts';
import { initORM } from '../../src/orm.ts';
import { judge, kendallTauB } from '../../src/shared/evaluation/judgements.ts';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import { buildStream } from '../support/factories.ts';
import { clipRating, seeded } from '../support/seeded.ts';

const logger = createLogger('silent');
const ANSWERS = JUDGED_WINDOW + 800;
let db: TestDatabase;
let one: Orm;
let two: Orm;
const truth = new Map<number, number>();

beforeAll(async () => {
  db = await createTestDatabase();
  one = await initORM({ url: db.url, poolMax: 4 });
  two = await initORM({ url: db.url, poolMax: 4 });
  const { next, normal } = seeded(5);
  const streams: Awaited<ReturnType<typeof buildStream>>[] = [];
  for (let i = 0; i < 40; i++) streams.push(await buildStream(one.em.fork(), { name: `Folded ${i}` }));
  for (const s of streams) truth.set(s.id, 1 + 4 * next());
  // Given over the last two hours, a rater in five a constant key.
  const start = Date.now() - 2 * 3_600_000;
  const rows = Array.from({ length: ANSWERS }, (_, n) => {
    const stream = streams[Math.floor(next() * streams.length)]!.id;
    const rater = Math.floor(next() * 20);
    return { stream_id: stream, evaluator_id: `evaluator_fold${String(rater).padStart(4, '0')}`, overall: rater < 4 ? 5 : clipRating(truth.get(stream)! + 0.7 * normal()), created_at: new Date(start + n * 3_000).toISOString() };
  });
  await one.em.fork().execute(
    `insert into human_quality_evaluations (stream_id, evaluator_id, overall, created_at)
      select v.stream_id, v.evaluator_id, v.overall, v.created_at from jsonb_to_recordset(?::jsonb) as v(stream_id int, evaluator_id text, overall smallint, created_at timestamptz)`,
    [JSON.stringify(rows)],
  );
});
afterAll(async () => {
  await one?.close();
  await two?.close();
  await db?.drop();
});

describe('folding past the window', () => {
  it('folds each answer past the window once, however many nodes settle, and ranks as the full fit does', async () => {
    const publisher = { publish: async () => undefined };
    const first = createScoreKeeper({ orm: one, commands: { publisher }, logger, debounceMs: 3_600_000 });
    const second = createScoreKeeper({ orm: two, commands: { publisher }, logger, debounceMs: 3_600_000 });
    await Promise.all([first.recompute(), second.recompute()]);
    await second.recompute();
    const folded = async () => {
      const [r] = await one.em.fork().execute<{ answers: number; items: number; mark: number }[]>(
        `select (select coalesce(sum(answers), 0)::int from judgement_raters) as answers, (select coalesce(sum(count), 0)::int from judgement_items) as items,
          (select last_id from judgement_folds where kind = 'rating') as mark`,
      );
      return r!;
    };
    const after = await folded();
    expect(after.answers).toBe(ANSWERS - JUDGED_WINDOW);
    expect(after.items).toBe(ANSWERS - JUDGED_WINDOW);
    const [{ id: newestFolded }] = await one.em.fork().execute<[{ id: number }]>('select id from human_quality_evaluations order by id offset ? limit 1', [ANSWERS - JUDGED_WINDOW - 1]);
    expect(after.mark).toBe(newestFolded);
    // Settling again changes nothing: the window is what is left.
    await first.recompute();
    expect(await folded()).toEqual(after);

    // The scores the keeper settled rank the streams as the fit over every answer does.
    const { ratings, comparisons } = await allAnswers(one.em.fork());
    const full = judge(ratings, comparisons);
    const rows = await one.em.fork().execute<{ id: number; score: number | null; count: number }[]>(
      'select id, human_score as score, human_count as count from streams where id in (select unnest(?::int[])) order by id',
      [`{${[...truth.keys()].join(',')}}`],
    );
    const ids = rows.map((r) => r.id);
    expect(rows.every((r) => r.score !== null)).toBe(true);
    expect(rows.reduce((sum, r) => sum + Number(r.count), 0)).toBe(ANSWERS);
    expect(kendallTauB(ids.map((id) => full.items.get(id)!.score), rows.map((r) => Number(r.score)))).toBeGreaterThan(0.85);
    expect(kendallTauB(ids.map((id) => truth.get(id)!), rows.map((r) => Number(r.score)))).toBeGreaterThanOrEqual(kendallTauB(ids.map((id) => truth.get(id)!), ids.map((id) => full.items.get(id)!.score)) - 0.05);
    first.stop();
    second.stop();
  }, 120_000);
});
