/**
 * `npm run bench:raters`: can the raters be gamed? A synthetic population with known truth runs
 * through the real queue and estimator (the evaluation module's service code on a throw-away
 * embedded PostgreSQL), once with the queue before issue 33 (an item is done after 3 ratings,
 * whoever gave them) and once with the confidence-driven one (pairs included), and prints
 * Kendall's τ-b between the fused and the true ranking against judgements spent, and the largest
 * move colluders achieved on the stream they promote.
 *
 * Population (issue 33): 200 streams, true quality uniform on 1–5. Raters: consistent ones answer
 * truth + N(0, 0.7), rounded and clipped to 1–5 (pairwise: the better one with the Bradley–Terry
 * probability of that noise); 30 % spammers, half always the same key (5; on pairs always "left"),
 * half uniform; a colluding group of 20 % answers honestly except for one target stream, which it
 * rates 5 (and picks in every pair). Goal: τ-b ≥ 0.9 at ≤ 6 judgements per stream; the colluders
 * move their target ≤ one grade (1 point on 1–5 = 20 on the quality scale). The move is measured
 * as the target's human score with every answer against the same answers without the colluders'
 * answers on the target. The population is seeded; the queue draws new raters' checks at random, so
 * the confidence queue's figures move by a few hundredths between runs. Last line: one JSON object.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { benchArgs } from './args.ts';
import { initORM, migrate } from '../src/orm.ts';
import { startEmbeddedPostgres } from '../src/embedded-postgres.ts';
import { freePort } from '../src/free-port.ts';
import { createLogger } from '../src/logger.ts';
import type { Orm } from '../src/db.ts';
import type { ChangePublisher } from '../src/domain/changes.ts';
import { runCommand } from '../src/domain/command.ts';
import { createItemDrawer, submitComparison, submitEvaluation } from '../src/modules/evaluation/evaluation.service.ts';
import { allAnswers, createScoreKeeper, type QueueRule } from '../src/modules/evaluation/score-keeper.ts';
import { JUDGED_WINDOW } from '../src/modules/evaluation/judgement-history.ts';
import { performance } from 'node:perf_hooks';
import { percentile } from './stats.ts';
import { judge, kendallTauB, PAIR_SCALE } from '../src/shared/evaluation/judgements.ts';
import { clipRating as clip, seeded } from '../tests/support/seeded.ts';

const { streams: STREAMS, raters: RATERS, seed: SEED, budget: BUDGET, pairs: PAIRS_PERCENT, on } = benchArgs({ streams: 200, raters: 50, seed: 7, budget: 8, pairs: 30 }, ['settling']);
const logger = createLogger('warn');
const CHECKPOINTS = [2, 3, 4, 6, 8].filter((c) => c <= BUDGET);
/** The score keeper settles after this many judgements (its debounce, in a burst of raters). */
const SETTLE_EVERY = 40;
/** Share of the confidence queue's requests that ask for a pair (--pairs, percent). */
const PAIR_SHARE = PAIRS_PERCENT / 100;


type Kind = 'consistent' | 'constant' | 'uniform' | 'colluder';
interface Rater {
  id: string;
  kind: Kind;
}

async function runQueue(rule: QueueRule, url: string) {
  const { next: rand, normal: gaussian } = seeded(SEED);
  const orm: Orm = await initORM({ url, poolMax: 5, logger });
  try {
    await migrate(orm);
    const em = orm.em.fork();
    await em.execute(`insert into streams (name, url, normalized_url, category, quality, active, created_at, updated_at)
      select 'Bench cam ' || i, 'https://cams.example.org/' || i || '.m3u8', 'cams.example.org/' || i || '.m3u8', 'nature', 'hd', true, now(), now()
      from generate_series(1, ${STREAMS}) i`, [], 'run');
    const ids = (await em.execute<{ id: number }[]>('select id from streams order by id', [], 'all')).map((r) => r.id);
    const truth = new Map(ids.map((id) => [id, 1 + 4 * rand()]));
    // The colluders' target: a middling stream (room to be promoted).
    const target = [...truth].sort((a, b) => Math.abs(a[1] - 2.5) - Math.abs(b[1] - 2.5))[0]![0];
    const counts = { constant: Math.round(RATERS * 0.15), uniform: Math.round(RATERS * 0.15), colluder: Math.round(RATERS * 0.2) };
    const raters: Rater[] = Array.from({ length: RATERS }, (_, i) => ({
      id: `evaluator_bench${String(i).padStart(6, '0')}`,
      kind: i < counts.constant ? 'constant' : i < counts.constant + counts.uniform ? 'uniform' : i < counts.constant + counts.uniform + counts.colluder ? 'colluder' : 'consistent',
    }));
    const answerOf = (r: Rater, stream: number): number => {
      if (r.kind === 'constant') return 5;
      if (r.kind === 'uniform') return 1 + Math.floor(rand() * 5);
      if (r.kind === 'colluder' && stream === target) return 5;
      return clip(truth.get(stream)! + 0.7 * gaussian());
    };
    const choiceOf = (r: Rater, left: number, right: number): 'left' | 'right' => {
      if (r.kind === 'constant') return 'left';
      if (r.kind === 'uniform') return rand() < 0.5 ? 'left' : 'right';
      if (r.kind === 'colluder' && (left === target || right === target)) return left === target ? 'left' : 'right';
      const p = 1 / (1 + Math.exp(-(truth.get(left)! - truth.get(right)!) / PAIR_SCALE));
      return rand() < p ? 'left' : 'right';
    };

    const publisher: ChangePublisher = { publish: async () => undefined };
    const keeper = createScoreKeeper({ orm, commands: { publisher }, logger, rule, debounceMs: 3_600_000 });
    const drawer = createItemDrawer(keeper);
    let spent = 0;
    let sinceSettle = 0;
    let idle = 0;
    const curve: { judgements_per_stream: number; tau_b: number }[] = [];
    const tau = async () => {
      const rows = await orm.em.fork().execute<{ id: number; s: number | null }[]>('select id, quality_score as s from streams order by id', [], 'all');
      return Math.round(kendallTauB(rows.map((r) => truth.get(r.id)!), rows.map((r) => (r.s === null ? 50 : Number(r.s)))) * 1000) / 1000;
    };
    let next = 0;
    while (spent < BUDGET * STREAMS && idle < raters.length) {
      const r = raters[Math.floor(rand() * raters.length)]!;
      let answered = false;
      if (rule === 'confidence' && rand() < PAIR_SHARE) {
        const pair = await drawer.nextPair(orm.em.fork(), r.id);
        if (pair) {
          await runCommand(orm.em.fork(), { publisher }, 'bench', (tx, changes) =>
            submitComparison(tx, changes, { queueId: pair.queueId, evaluatorId: r.id, choice: choiceOf(r, pair.left.streamId, pair.right.streamId) }),
          );
          answered = true;
        }
      } else {
        const item = await drawer.next(orm.em.fork(), r.id);
        if (item) {
          const value = answerOf(r, item.streamId);
          await runCommand(orm.em.fork(), { publisher }, 'bench', (tx, changes) =>
            submitEvaluation(tx, changes, { queueId: item.queueId, evaluatorId: r.id, videoQuality: value, movement: value, content: value, overall: value }, rule),
          );
          answered = true;
        }
      }
      idle = answered ? 0 : idle + 1;
      if (!answered) continue;
      spent++;
      if (++sinceSettle >= SETTLE_EVERY) {
        sinceSettle = 0;
        await keeper.recompute();
      }
      if (next < CHECKPOINTS.length && spent >= CHECKPOINTS[next]! * STREAMS) {
        await keeper.recompute();
        curve.push({ judgements_per_stream: CHECKPOINTS[next]!, tau_b: await tau() });
        next++;
      }
    }
    await keeper.recompute();
    const final = { judgements_per_stream: Math.round((spent / STREAMS) * 100) / 100, tau_b: await tau() };
    // The colluders' move: the target's score with everything, and without their answers on it.
    const { ratings, comparisons } = await allAnswers(orm.em.fork());
    const colluders = new Set(raters.filter((r) => r.kind === 'colluder').map((r) => r.id));
    const withThem = judge(ratings, comparisons).items.get(target)?.score ?? 3;
    const without = judge(
      ratings.filter((a) => !(colluders.has(a.rater) && a.item === target)),
      comparisons.filter((c) => !(colluders.has(c.rater) && (c.left === target || c.right === target))),
    ).items.get(target)?.score ?? 3;
    keeper.stop();
    return {
      curve,
      final,
      stopped: spent >= BUDGET * STREAMS ? 'budget' : 'queue empty for every rater',
      colluders: {
        // The queue, not the colluders, decides who answers what: how many of their answers reached the target.
        answers_on_target: ratings.filter((a) => colluders.has(a.rater) && a.item === target).length + comparisons.filter((c) => colluders.has(c.rater) && (c.left === target || c.right === target)).length,
        target_truth: Math.round(truth.get(target)! * 100) / 100, score_with: Math.round(withThem * 100) / 100, score_without: Math.round(without * 100) / 100, move_points: Math.round((withThem - without) * 100) / 100 },
    };
  } finally {
    await orm.close();
  }
}

/**
 * What the population allows, whatever the queue: each stream's score as the mean of its honest
 * ratings, the estimator told who is honest (no weight to learn), judgements spread evenly. Two
 * ceilings per budget k: every one of the k judgements honest (a queue that somehow never served
 * a spammer), and k judgements from the population's mix (30 % spammers, whose answers are
 * simply dropped). Mean τ-b over 20 populations like the benchmark's (seeds SEED … SEED + 19),
 * no database: the noise of σ 0.7 ratings, rounded, is the whole limit. A ranking of 200 streams
 * needs each score within about 0.2 of the truth for τ-b 0.9; the mean of k such ratings is
 * within about 0.75/√k.
 */
function ceilings(k: number): { every_answer_honest: number; spam_dropped: number } {
  const POPULATIONS = 20;
  let honest = 0;
  let dropped = 0;
  for (let p = 0; p < POPULATIONS; p++) {
    const { next: rand, normal: gaussian } = seeded(SEED + p);
    const truth = Array.from({ length: STREAMS }, () => 1 + 4 * rand());
    const mean = (values: number[]) => (values.length ? values.reduce((a, b) => a + b, 0) / values.length : 3);
    const allHonest = truth.map((t) => mean(Array.from({ length: k }, () => clip(t + 0.7 * gaussian()))));
    // 30 % of the k answers come from spammers and carry nothing; the rest are honest.
    const mixed = truth.map((t) => mean(Array.from({ length: k }, () => rand() >= 0.3).filter(Boolean).map(() => clip(t + 0.7 * gaussian()))));
    honest += kendallTauB(truth, allHonest);
    dropped += kendallTauB(truth, mixed);
  }
  const round = (v: number) => Math.round((v / POPULATIONS) * 1000) / 1000;
  return { every_answer_honest: round(honest), spam_dropped: round(dropped) };
}

/**
 * `--settling` (issue 42, item 5): what a settling costs as the history grows. For 1,000, 10,000
 * and 100,000 answers of a population like the one above (given over the last hours, so past the
 * fold's minute), in a fresh database each: the first settling (which folds everything past the
 * window: once, on an upgrade), then `SETTLINGS` times 40 new answers and a settling, timed
 * (performance.now() around keeper.recompute(), which reads, fits, writes the scores and folds).
 * Beside it, the fit the keeper ran before (judge over every answer) at the sizes it can finish.
 */
const SETTLINGS = 5;
async function settling(url: string, answers: number) {
  const { next: rand, normal: gaussian } = seeded(SEED);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const name = `settling_${answers}`;
  await client.query(`create database ${name}`);
  await client.end();
  const orm: Orm = await initORM({ url: url.replace(/\/[^/?]+(\?|$)/, `/${name}$1`), poolMax: 5, logger });
  try {
    await migrate(orm);
    const em = orm.em.fork();
    await em.execute(`insert into streams (name, url, normalized_url) select 'Bench cam ' || i, 'https://cams.example.org/' || i || '.m3u8', 'cams.example.org/' || i || '.m3u8' from generate_series(1, ${STREAMS}) i`, [], 'run');
    const ids = (await em.execute<{ id: number }[]>('select id from streams order by id', [], 'all')).map((r) => r.id);
    const truth = new Map(ids.map((id) => [id, 1 + 4 * rand()]));
    const kinds = Array.from({ length: RATERS }, (_, i) => (i < RATERS * 0.15 ? 'constant' : i < RATERS * 0.3 ? 'uniform' : 'consistent'));
    let given = 0;
    const start = Date.now() - 3 * 3_600_000;
    async function give(count: number, at: () => number) {
      const ratings = [];
      const pairs = [];
      for (let n = 0; n < count; n++) {
        const r = Math.floor(rand() * RATERS);
        const rater = `evaluator_bench${String(r).padStart(6, '0')}`;
        const created_at = new Date(at()).toISOString();
        if (rand() >= PAIR_SHARE) {
          const stream = ids[Math.floor(rand() * ids.length)]!;
          const value = kinds[r] === 'constant' ? 5 : kinds[r] === 'uniform' ? 1 + Math.floor(rand() * 5) : clip(truth.get(stream)! + 0.7 * gaussian());
          ratings.push({ stream_id: stream, evaluator_id: rater, overall: value, created_at });
        } else {
          const left = ids[Math.floor(rand() * ids.length)]!;
          const right = ids.filter((id) => id !== left)[Math.floor(rand() * (ids.length - 1))]!;
          const p = 1 / (1 + Math.exp(-(truth.get(left)! - truth.get(right)!) / PAIR_SCALE));
          const choice = kinds[r] === 'constant' ? 'left' : kinds[r] === 'uniform' ? (rand() < 0.5 ? 'left' : 'right') : rand() < p ? 'left' : 'right';
          pairs.push({ left_stream_id: left, right_stream_id: right, evaluator_id: rater, choice, created_at });
        }
        given++;
      }
      for (let i = 0; i < ratings.length; i += 10_000) {
        await em.execute(
          `insert into human_quality_evaluations (stream_id, evaluator_id, video_quality, movement, content, overall, created_at)
            select v.stream_id, v.evaluator_id, v.overall, v.overall, v.overall, v.overall, v.created_at from jsonb_to_recordset(?::jsonb) as v(stream_id int, evaluator_id text, overall smallint, created_at timestamptz)`,
          [JSON.stringify(ratings.slice(i, i + 10_000))],
          'run',
        );
      }
      for (let i = 0; i < pairs.length; i += 10_000) {
        await em.execute(
          `insert into pairwise_evaluations (left_stream_id, right_stream_id, evaluator_id, choice, created_at)
            select v.left_stream_id, v.right_stream_id, v.evaluator_id, v.choice, v.created_at from jsonb_to_recordset(?::jsonb) as v(left_stream_id int, right_stream_id int, evaluator_id text, choice text, created_at timestamptz)`,
          [JSON.stringify(pairs.slice(i, i + 10_000))],
          'run',
        );
      }
    }
    await give(answers, () => start + (given / answers) * 2 * 3_600_000);
    const publisher: ChangePublisher = { publish: async () => undefined };
    const keeper = createScoreKeeper({ orm, commands: { publisher }, logger, rule: 'confidence', debounceMs: 3_600_000 });
    let at = performance.now();
    await keeper.recompute();
    const first = performance.now() - at;
    const times: number[] = [];
    for (let i = 0; i < SETTLINGS; i++) {
      await give(SETTLE_EVERY, () => Date.now() - 2 * 60_000);
      at = performance.now();
      await keeper.recompute();
      times.push(performance.now() - at);
    }
    keeper.stop();
    // Every answer fitted at once, as each settling did before this release (this release's judge(), timed alone; the keeper read them all too).
    let full: number | null = null;
    if (answers <= 10_000) {
      const everything = await allAnswers(orm.em.fork());
      at = performance.now();
      judge(everything.ratings, everything.comparisons);
      full = performance.now() - at;
    }
    const [{ n: folded }] = await orm.em.fork().execute<[{ n: number }]>('select coalesce(sum(answers), 0)::int as n from judgement_raters', [], 'all');
    const tau = async () => {
      const rows = await orm.em.fork().execute<{ id: number; s: number | null }[]>('select id, quality_score as s from streams order by id', [], 'all');
      return Math.round(kendallTauB(rows.map((r) => truth.get(r.id)!), rows.map((r) => (r.s === null ? 50 : Number(r.s)))) * 1000) / 1000;
    };
    return { answers: given, folded, first_settling_ms: Math.round(first), settling_ms: Math.round(percentile(times, 50)), settling_max_ms: Math.round(Math.max(...times)), every_answer_fit_ms: full === null ? null : Math.round(full), tau_b: await tau() };
  } finally {
    await orm.close();
  }
}

const dataDir = await mkdtemp(path.join(os.tmpdir(), 'nw-bench-raters-'));
const db = await startEmbeddedPostgres({ dataDir, port: await freePort(), logger, onGiveUp: (reason) => { throw new Error(reason); } });
let result: Record<string, unknown>;
if (on('settling')) {
  try {
    const sizes: Awaited<ReturnType<typeof settling>>[] = [];
    for (const answers of [1_000, 10_000, 100_000]) {
      sizes.push(await settling(db.url, answers));
      console.log('settling:', JSON.stringify(sizes.at(-1)));
    }
    // Each size against the first: no more than 20 % slower is not growing; within ±20 % either way, flat.
    const ratios = sizes.map((s) => Math.round((s.settling_ms / sizes[0]!.settling_ms) * 100) / 100);
    result = {
      mode: 'settling',
      streams: STREAMS,
      raters: RATERS,
      window: JUDGED_WINDOW,
      sizes,
      goal: 'settling time flat (±20 %) from 1,000 to 100,000 answers',
      met: { no_growth: ratios.every((r) => r <= 1.2), within_20_percent: ratios.every((r) => Math.abs(r - 1) <= 0.2), ratios },
    };
  } finally {
    await db.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
  console.log(JSON.stringify(result));
  process.exit(0);
}
try {
  const urls: Record<QueueRule, string> = { count: '', confidence: '' };
  for (const rule of ['count', 'confidence'] as const) {
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    await client.query(`create database raters_${rule}`);
    await client.end();
    urls[rule] = db.url.replace(/\/[^/?]+(\?|$)/, `/raters_${rule}$1`);
  }
  const before = await runQueue('count', urls.count);
  console.log('count (before issue 33):', JSON.stringify(before));
  const now = await runQueue('confidence', urls.confidence);
  console.log('confidence (issue 33):', JSON.stringify(now));
  const at6 = now.curve.find((c) => c.judgements_per_stream === 6)?.tau_b ?? null;
  const ceiling = Object.fromEntries(CHECKPOINTS.map((k) => [k, ceilings(k)]));
  console.log('ceiling (the mean of honest ratings, raters known):', JSON.stringify(ceiling));
  const met = { tau_b_at_6: at6 !== null && at6 >= 0.9, colluders_within_one_grade: Math.abs(now.colluders.move_points) <= 1 };
  result = {
    streams: STREAMS,
    raters: RATERS,
    seed: SEED,
    count_queue: before,
    confidence_queue: now,
    ceiling_by_judgements_per_stream: ceiling,
    goal: { tau_b_at_6_judgements_per_stream: '>= 0.9', colluder_move_points: '<= 1 (one grade)' },
    met: { ...met, all: met.tau_b_at_6 && met.colluders_within_one_grade },
  };
} finally {
  await db.stop();
  await rm(dataDir, { recursive: true, force: true });
}
console.log(JSON.stringify(result));
