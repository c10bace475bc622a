/**
 * Raters that cannot be gamed, through the real routes, queue and estimator on a real database:
 * a rating counts only for an item leased to that rater; constant-key ratings do not finish an
 * item; only active streams reach raters (an item or pair of a stream deactivated after it was
 * queued is never handed out, an offline stream never queued); a new rater first gets a check (a stream whose answer is established) without being told;
 * pairs ("which looks better?") are leased, answered once, and move scores; the Ratings tab's
 * figures say each rater's agreement and standing and why items wait. And the case that failed
 * one run in two: four copies of one stream of true quality 5, 4, 2, 1, rated by five consistent
 * raters, one who always presses 5 and one who presses anything (see the last test for what
 * five raters can and cannot tell apart).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EvaluationItemDto, PairItemDto, RaterReliabilityDto, SubmitEvaluationDto, WaitingItemDto } from '../../src/shared/api/index.ts';
import { evaluationModule } from '../../src/modules/evaluation/evaluation.module.ts';
import { EvaluationItem } from '../../src/modules/evaluation/evaluation.entity.ts';
import { nextPair } from '../../src/modules/evaluation/rater-queue.ts';
import { Stream } from '../../src/modules/streams/stream.entity.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { buildStream } from '../support/factories.ts';
import { clipRating as clip, seeded } from '../support/seeded.ts';

let app: TestApp;
const rater = (tag: string) => `evaluator_${tag.padEnd(12, '0')}`;

beforeAll(async () => {
  // Scores are settled when the test says so (recompute), not by a timer.
  app = await startTestApp({ settings: { evaluation: { debounceMs: 3_600_000, requestsPerMinute: 1_000_000 } } });
});
afterAll(async () => {
  await app?.close();
});

const keeper = () => app.app.use(evaluationModule);
const next = (id: string) => app.anonymous<EvaluationItemDto>('GET', `/api/human-evaluation?action=next&evaluatorId=${id}`);
const rate = (queueId: number, evaluatorId: string, value: number) =>
  app.anonymous<SubmitEvaluationDto & { error?: string }>('POST', '/api/human-evaluation?action=submit', { queueId, evaluatorId, videoQuality: value, movement: value, content: value, overall: value });

/** A clean slate: no answers, no queue, only these streams active (each with the same automatic half). */
async function freshStreams(names: string[]): Promise<Stream[]> {
  const em = app.orm.em.fork();
  await em.execute('delete from pairwise_evaluations; delete from human_quality_evaluations; delete from evaluation_queue', [], 'run');
  await em.nativeUpdate(Stream, {}, { active: false });
  const made: Stream[] = [];
  for (const name of names) made.push(await buildStream(em, { name: `${name} ${Math.random().toString(36).slice(2, 8)}` }));
  await em.nativeUpdate(Stream, { id: { $in: made.map((s) => s.id) } }, { autoScore: 70, autoConfidence: 0.9, qualityScore: 70, qualityConfidence: 0.9, humanScore: null, humanConfidence: null, humanCount: 0 });
  await keeper().recompute();
  return made;
}


describe('a rating counts only where it was asked for', () => {
  it('refuses an item leased to nobody or to another rater (409), and takes it from the rater who drew it', async () => {
    const [stream] = await freshStreams(['Leased cam']);
    const drawn = (await next(rater('lease1'))).body;
    expect(drawn.streamId).toBe(stream!.id);
    const stranger = await rate(drawn.queueId, rater('lease2'), 5);
    expect(stranger.status).toBe(409);
    expect(stranger.body.error).toMatch(/not given to you/);
    expect((await rate(drawn.queueId, rater('lease1'), 4)).body).toMatchObject({ success: true, duplicate: false });
    // Its lease ended with the rating: the same id cannot rate it again under another name either.
    expect((await rate(drawn.queueId, rater('lease3'), 5)).status).toBe(409);
  });

  it('keeps an item that only constant-key raters answered in the queue', async () => {
    const [stream] = await freshStreams(['Spammed cam']);
    for (let i = 0; i < 3; i++) {
      const item = (await next(rater(`spam${i}`))).body;
      expect(item.streamId).toBe(stream!.id);
      await rate(item.queueId, rater(`spam${i}`), 5);
    }
    await keeper().recompute();
    const items = await app.orm.em.fork().find(EvaluationItem, { stream: stream!.id, kind: 'rate' });
    expect(items.map((i) => i.status)).toEqual(['pending']); // the old queue called it done at three ratings
    const waiting = (await app.request<WaitingItemDto[]>('GET', '/api/evaluation/waiting')).body;
    expect(waiting.find((w) => w.streamId === stream!.id)).toMatchObject({ kind: 'rate', reason: expect.stringMatching(/Low confidence|Raters disagree/) });
  });
});

describe('only active streams reach raters', () => {
  it('never hands out an item or a pair of a stream made inactive after it was queued, and never queues an offline one', async () => {
    const [kept, gone, offline] = await freshStreams(['Kept cam', 'Gone cam', 'Offline cam']);
    const em = app.orm.em.fork();
    await em.nativeUpdate(Stream, { id: offline!.id }, { health: 'offline' });
    // The first draw fills the queue; settling queues the pair of the two waiting streams.
    expect([kept!.id, gone!.id]).toContain((await next(rater('act1'))).body.streamId);
    await keeper().recompute();
    const pending = await em.find(EvaluationItem, { status: 'pending' }, { orderBy: { id: 'asc' } });
    expect(pending.map((i) => [i.kind, i.stream.id, i.partnerStream?.id ?? null].join(' ')).sort()).toEqual(
      [`compare ${Math.min(kept!.id, gone!.id)} ${Math.max(kept!.id, gone!.id)}`, `rate ${kept!.id} `, `rate ${gone!.id} `].sort(),
    );
    await em.nativeUpdate(Stream, { id: gone!.id }, { active: false });
    await em.nativeUpdate(EvaluationItem, {}, { assignedTo: null, assignedAt: null }); // act1 walked away
    expect((await next(rater('act2'))).body.streamId).toBe(kept!.id);
    const none = await next(rater('act3'));
    expect(none.status).toBe(404); // only the inactive stream's item waits
    // The lease itself (the route's drawer would also refill, at most once a minute per app, which the pair test below needs).
    expect(await app.orm.em.fork().transactional((tx) => nextPair(tx, rater('act4')))).toBeNull();
    expect(await em.count(EvaluationItem, { stream: offline!.id })).toBe(0);
  });
});

describe('new raters, trusted raters and pairs', () => {
  it('gives a new rater a check first — a stream whose answer is established — without saying so', async () => {
    const streams = await freshStreams(['First cam', 'Second cam', 'Third cam', 'Fourth cam']);
    // Four raters agree on every stream they draw (three answers each: a history to be judged by).
    for (let r = 0; r < 4; r++) {
      for (let k = 0; k < 3; k++) {
        const item = (await next(rater(`est${r}`))).body;
        await rate(item.queueId, rater(`est${r}`), 5);
      }
    }
    await keeper().recompute();
    const established = await app.orm.em.fork().find(Stream, { id: { $in: streams.map((s) => s.id) }, humanConfidence: { $gte: 0.5 } });
    expect(established.length).toBeGreaterThan(0);
    const newcomer = rater('newbie');
    const first = (await next(newcomer)).body;
    expect(established.map((s) => s.id)).toContain(first.streamId);
    expect(first.reason).toBe('Periodic re-check');
    // …with the priority a periodic re-check of a stream with that many answers has (10, one less an answer, at least 1).
    expect(first.priority).toBe(Math.max(1, 10 - first.previousEvaluations));
    const waiting = (await app.request<WaitingItemDto[]>('GET', '/api/evaluation/waiting')).body;
    expect(waiting.find((w) => w.queueId === first.queueId)).toMatchObject({ kind: 'check', reason: 'New rater check' });
    await rate(first.queueId, newcomer, 1); // it measures them against the consensus
    expect((await app.orm.em.fork().findOneOrFail(EvaluationItem, { id: first.queueId })).status).toBe('done');
    // An established rater never draws a check, even while one waits for another new rater: given
    // a stream nobody has rated (so there is something for them), they draw a stream to rate.
    const otherNewcomer = (await next(rater('newbie2'))).body;
    expect((await app.orm.em.fork().findOneOrFail(EvaluationItem, { id: otherNewcomer.queueId })).kind).toBe('check');
    const unrated = await buildStream(app.orm.em.fork(), { name: `Unrated cam ${Math.random().toString(36).slice(2, 8)}` });
    const regular = await next(rater('est0'));
    expect(regular.status).toBe(200);
    expect(regular.body.queueId).not.toBe(otherNewcomer.queueId);
    expect([...streams.map((s) => s.id), unrated.id]).toContain(regular.body.streamId);
    expect((await app.orm.em.fork().findOneOrFail(EvaluationItem, { id: regular.body.queueId })).kind).toBe('rate');
  });

  it('leases pairs where they tell the most, takes one answer per rater, and lets the answers move the scores', async () => {
    const [a, b] = await freshStreams(['Left cam', 'Right cam']);
    const asker = rater('pairs1');
    const pair = await app.anonymous<PairItemDto>('GET', `/api/human-evaluation?action=next-pair&evaluatorId=${asker}`);
    expect(pair.status).toBe(200);
    expect(pair.body).toMatchObject({ kind: 'compare', reason: 'Which looks better?' });
    expect(new Set([pair.body.left.streamId, pair.body.right.streamId])).toEqual(new Set([a!.id, b!.id]));
    const answer = (evaluatorId: string, choice: string, queueId = pair.body.queueId) =>
      app.anonymous<SubmitEvaluationDto & { error?: string }>('POST', '/api/human-evaluation?action=compare', { queueId, evaluatorId, choice });
    expect((await answer(asker, 'sideways')).status).toBe(400);
    expect((await answer(rater('pairs2'), 'left')).status).toBe(409);
    expect((await app.anonymous('POST', '/api/human-evaluation?action=submit', { queueId: pair.body.queueId, evaluatorId: asker, choice: 'left' })).status).toBe(400);
    expect((await answer(asker, 'left')).body).toMatchObject({ success: true, duplicate: false });
    expect((await answer(asker, 'right')).body).toMatchObject({ duplicate: true });
    expect((await app.anonymous('GET', '/api/human-evaluation?action=next-pair')).status).toBe(400);
    // More raters agree: the left one is better.
    for (let r = 2; r < 6; r++) {
      const id = rater(`pairs${r}`);
      const got = await app.anonymous<PairItemDto>('GET', `/api/human-evaluation?action=next-pair&evaluatorId=${id}`);
      if (got.status !== 200) break; // the pair had its answers
      await answer(id, got.body.left.streamId === pair.body.left.streamId ? 'left' : 'right', got.body.queueId);
    }
    await keeper().recompute();
    const [left, right] = [await app.orm.em.fork().findOneOrFail(Stream, { id: pair.body.left.streamId }), await app.orm.em.fork().findOneOrFail(Stream, { id: pair.body.right.streamId })];
    expect(left.humanScore!).toBeGreaterThan(right.humanScore!);
    const raters = (await app.request<RaterReliabilityDto[]>('GET', '/api/evaluation/raters')).body;
    expect(raters[0]).toMatchObject({ agreement: expect.any(Number), standing: expect.stringMatching(/^(new|regular|trusted)$/) });
  });
});

describe('four copies of one stream, true quality 5, 4, 2, 1', () => {
  /**
   * What the issue saw fail one run in two: the spammers deciding a copy's place. Five careful
   * raters (σ 0.7, ratings rounded and clipped to 1–5) tell neighbouring copies apart only so
   * well: a truth-5 stream's ratings can only err downwards and a truth-1 stream's upwards, so
   * each neighbouring pair's means are about 0.6 apart with a standard error near 0.4 — right in
   * about 93 % of runs each, about 80 % for all three at once, whatever the queue does (each
   * rater rates a stream once a day). So the test asks for A > B > C > D in at least 15 of 20
   * seeded runs and prints the others; the queue before issue 33 (an item done at 3 ratings,
   * whoever gave them) ordered 2 of 20 on the same raters; this queue 19.
   */
  it('come out A > B > C > D in at least 15 of 20 seeded runs', async () => {
    const TRUTH = [5, 4, 2, 1];
    const misordered: string[] = [];
    for (let seed = 1; seed <= 20; seed++) {
      const { next: rand, normal: gaussian } = seeded(seed);
      const copies = await freshStreams(['A', 'B', 'C', 'D']);
      const truth = new Map(copies.map((s, i) => [s.id, TRUTH[i]!]));
      const raters = [
        ...Array.from({ length: 5 }, (_, i) => ({ id: rater(`s${seed}c${i}`), answer: (t: number) => clip(t + 0.7 * gaussian()) })),
        { id: rater(`s${seed}k5`), answer: () => 5 },
        { id: rater(`s${seed}rn`), answer: () => 1 + Math.floor(rand() * 5) },
      ];
      // Raters come in a seeded order, round after round, until the queue has nothing left for any of them.
      for (let round = 0; round < 20; round++) {
        let answered = 0;
        for (const r of [...raters].sort(() => rand() - 0.5)) {
          const item = await next(r.id);
          if (item.status !== 200) continue;
          await rate(item.body.queueId, r.id, r.answer(truth.get(item.body.streamId)!));
          answered++;
        }
        await keeper().recompute();
        if (answered === 0) break;
      }
      const fused = await app.orm.em.fork().find(Stream, { id: { $in: copies.map((s) => s.id) } });
      const [a, b, c, d] = copies.map((s) => fused.find((f) => f.id === s.id)!.qualityScore!);
      if (!(a! > b! && b! > c! && c! > d!)) misordered.push(`seed ${seed}: A ${a} B ${b} C ${c} D ${d}`);
    }
    console.log(`ordered A > B > C > D in ${20 - misordered.length} of 20 runs${misordered.length ? `; not in:\n${misordered.join('\n')}` : ''}`);
    expect(misordered.length).toBeLessThanOrEqual(5);
  }, 240_000);
});
