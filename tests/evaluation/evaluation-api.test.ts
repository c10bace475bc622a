/**
 * The human-evaluation API (spec §7) on a real database: the queue and its lease (ten raters
 * asking at once get ten different streams), ratings once per item and rater, skips, lease
 * expiry, the empty queue, stats and the masked leaderboard, the rate limit, and the pushes: a
 * rater's screen hears the queue move, and a burst of ratings that lifts a stream reorders a
 * ranked scene with one push to its walls.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EvaluationItemDto, EvaluatorStatsDto, LeaderboardEntryDto, QueueStatusDto, RecentEvaluationDto, SubmitEvaluationDto } from '../../src/shared/api/index.ts';
import type { WallState } from '../../src/shared/events.ts';
import { Stream } from '../../src/modules/streams/stream.entity.ts';
import { EvaluationItem, HumanEvaluation } from '../../src/modules/evaluation/evaluation.entity.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { buildScene, buildStream } from '../support/factories.ts';
import { openScreen, type TestScreen } from '../support/screens.ts';
import { evaluationModule } from '../../src/modules/evaluation/evaluation.module.ts';

let app: TestApp;
const screens: TestScreen[] = [];
const rater = (n: number) => `evaluator_${String(n).padStart(8, '0')}-aaaa-bbbb-cccc-${String(n).padStart(12, '0')}`;
const streams: Stream[] = [];

beforeAll(async () => {
  app = await startTestApp({ hub: true, settings: { evaluation: { debounceMs: 300 } } });
  const em = app.orm.em.fork();
  await em.nativeUpdate(Stream, {}, { active: false });
  for (let i = 0; i < 12; i++) streams.push(await buildStream(em, { name: `Rated cam ${i}` }));
});
afterAll(async () => {
  screens.forEach((s) => s.close());
  await app?.close();
});

const next = (id: string) => app.anonymous<EvaluationItemDto & { queueEmpty?: boolean }>('GET', `/api/human-evaluation?action=next&evaluatorId=${id}`);
const submit = (body: Record<string, unknown>, action = 'submit') => app.anonymous<SubmitEvaluationDto & { error?: string }>('POST', `/api/human-evaluation?action=${action}`, body);
const rate = (queueId: number, evaluatorId: string, value: number) =>
  submit({ queueId, evaluatorId, videoQuality: value, movement: value, content: value, audio: value, overall: value, durationMs: 12_000 });

describe('the queue', () => {
  it('fills itself with the streams never rated, and leases the next one to the rater who drew it', async () => {
    expect((await app.anonymous<QueueStatusDto>('GET', '/api/human-evaluation?action=queue-status')).body).toEqual({ pending: 0, completedToday: 0 });
    const first = await next(rater(1));
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ reason: 'Not yet evaluated', priority: 100, previousEvaluations: 0, category: expect.any(String) });
    expect(streams.map((s) => s.id)).toContain(first.body.streamId);
    expect((await next(rater(1))).body.queueId).toBe(first.body.queueId); // asking again returns the same lease
    expect((await app.anonymous<QueueStatusDto>('GET', '/api/human-evaluation?action=queue-status')).body.pending).toBe(12);
  });

  it('without a rater id, answers what a new rater would get and leases it to nobody; stats are a new rater\'s', async () => {
    const peek = await app.anonymous<EvaluationItemDto>('GET', '/api/human-evaluation?action=next');
    expect(peek.status).toBe(200);
    // An item nobody holds, still held by nobody: the next rater with an id may draw it.
    expect((await app.orm.em.fork().findOneOrFail(EvaluationItem, { id: peek.body.queueId })).assignedTo).toBeNull();
    const stats = await app.anonymous<EvaluatorStatsDto>('GET', '/api/human-evaluation?action=stats');
    expect(stats.status).toBe(200);
    expect(stats.body.totalEvaluations).toBe(0);
  });

  it('gives ten raters asking at once ten different streams', async () => {
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => next(rater(100 + i))));
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
    expect(new Set(answers.map((a) => a.body.queueId)).size).toBe(10);
  });

  it('records a rating once per item and rater, and refuses bad ratings with a sentence', async () => {
    const item = (await next(rater(2))).body;
    for (const bad of [6, 0, 2.5, '5', null]) {
      const res = await submit({ queueId: item.queueId, evaluatorId: rater(2), videoQuality: bad, movement: 3, content: 3, overall: 3 });
      expect(res.status, String(bad)).toBe(400);
      expect(res.body.error).toBeTruthy();
    }
    expect((await submit({ queueId: 999999, evaluatorId: rater(2), skipped: true })).status).toBe(404);
    expect((await submit({ queueId: item.queueId, evaluatorId: 'x', skipped: true })).status).toBe(400);
    const first = await rate(item.queueId, rater(2), 4);
    expect(first.body).toMatchObject({ success: true, duplicate: false });
    const again = await rate(item.queueId, rater(2), 1);
    expect(again.body).toEqual({ success: true, evaluationId: first.body.evaluationId, duplicate: true });
    expect(await app.orm.em.fork().count(HumanEvaluation, { item: item.queueId, evaluatorId: rater(2) })).toBe(1);
  });

  it('records a skip, and answers stats for the rater', async () => {
    await app.orm.em.fork().nativeUpdate(EvaluationItem, {}, { assignedTo: null, assignedAt: null }); // the raters above walked away
    const item = (await next(rater(3))).body;
    expect((await submit({ queueId: item.queueId, evaluatorId: rater(3), skipped: true, durationMs: 3000 }, 'skip')).body).toMatchObject({ success: true });
    const other = (await next(rater(3))).body;
    expect(other.queueId).not.toBe(item.queueId);
    await rate(other.queueId, rater(3), 5);
    const stats = (await app.anonymous<EvaluatorStatsDto>('GET', `/api/human-evaluation?action=stats&evaluatorId=${rater(3)}`)).body;
    expect(stats).toEqual({ totalEvaluations: 1, evaluationsToday: 1, evaluationsThisWeek: 1, streamsEvaluated: 1, averageTimeMs: 7500, skipRate: 0.5 });
  });

  it('shows the weekly leaderboard with masked raters, and admins the recent evaluations', async () => {
    const board = (await app.anonymous<LeaderboardEntryDto[]>('GET', '/api/human-evaluation?action=leaderboard')).body;
    expect(board.length).toBeGreaterThan(0);
    for (const entry of board) expect(entry.evaluator).toMatch(/^evaluator_.{4}$/);
    expect((await app.anonymous('GET', '/api/quality?action=recent-evaluations')).status).toBe(401);
    await app.app.use(evaluationModule).recompute();
    const recent = (await app.request<RecentEvaluationDto[]>('GET', '/api/quality?action=recent-evaluations')).body;
    expect(recent[0]).toMatchObject({ evaluationCount: 1, weightedScore: expect.any(Number), confidence: expect.any(Number) });
    expect(recent[0]!.weightedScore).toBeGreaterThan(3);
  });

  it('passes a lease on when it expires, and answers 404 queueEmpty when nothing is left', async () => {
    const em = app.orm.em.fork();
    const held = (await next(rater(4))).body;
    await em.nativeUpdate(EvaluationItem, { status: 'pending', id: { $ne: held.queueId } }, { status: 'done', completedAt: new Date() });
    const nothing = await next(rater(5));
    expect(nothing.status).toBe(404);
    expect(nothing.body).toMatchObject({ queueEmpty: true });
    await em.nativeUpdate(EvaluationItem, { id: held.queueId }, { assignedAt: new Date(Date.now() - 3 * 60_000) });
    expect((await next(rater(5))).body.queueId).toBe(held.queueId);
  });

  it('answers bad requests with 4xx', async () => {
    expect((await app.anonymous('GET', '/api/human-evaluation?action=next&evaluatorId=short')).status).toBe(400);
    expect((await app.anonymous('GET', '/api/human-evaluation?action=dance')).status).toBe(400);
    expect((await app.anonymous('GET', '/api/human-evaluation?action=submit&evaluatorId=evaluator_12345678')).status).toBe(405);
    expect((await app.anonymous('POST', '/api/human-evaluation?action=skip', { queueId: 1, evaluatorId: rater(9), overall: 3, videoQuality: 3, movement: 3, content: 3 })).status).toBe(400);
  });
});

describe('limits and pushes', () => {
  it('rate-limits a client that asks too often (429 with Retry-After)', async () => {
    const limited = await startTestApp({ database: app.db, settings: { evaluation: { requestsPerMinute: 3 } } });
    try {
      const codes: number[] = [];
      let retryAfter: string | null = null;
      for (let i = 0; i < 5; i++) {
        const res = await limited.anonymous('GET', '/api/human-evaluation?action=queue-status');
        codes.push(res.status);
        retryAfter ??= res.headers.get('retry-after');
      }
      expect(codes).toEqual([200, 200, 200, 429, 429]);
      expect(Number(retryAfter)).toBeGreaterThan(0);
    } finally {
      await limited.close();
    }
  });

  it('tells raters when the queue moves, and reorders a ranked scene with one push for a burst of ratings', async () => {
    const em = app.orm.em.fork();
    await em.nativeUpdate(EvaluationItem, {}, { status: 'done', completedAt: new Date(Date.now() - 2 * 86_400_000) });
    await em.nativeUpdate(Stream, {}, { active: false });
    const [top, middle, low] = [await buildStream(em, { name: 'Top' }), await buildStream(em, { name: 'Middle' }), await buildStream(em, { name: 'Low' })];
    await em.nativeUpdate(Stream, { id: top.id }, { autoScore: 80, autoConfidence: 0.9, qualityScore: 80, qualityConfidence: 0.9 });
    await em.nativeUpdate(Stream, { id: middle.id }, { autoScore: 70, autoConfidence: 0.9, qualityScore: 70, qualityConfidence: 0.9 });
    await em.nativeUpdate(Stream, { id: low.id }, { autoScore: 60, autoConfidence: 0.9, qualityScore: 60, qualityConfidence: 0.9 });
    const scene = await buildScene(em, { name: 'Best of the pool', selectionAlgorithm: 'ranked', maxStreams: 2 });
    const wall = openScreen(app.baseUrl, { kind: 'wall', sceneSlug: scene.slug! });
    const raterScreen = openScreen(app.baseUrl, { kind: 'rater' });
    screens.push(wall, raterScreen);
    await wall.waitFor((s) => (s as WallState | null)?.streams.length === 2);
    expect((wall.state as WallState).streams.map((s) => s.id)).toEqual([top.id, middle.id]);
    const queueMoves: QueueStatusDto[] = [];
    raterScreen.client.socket.on('evaluation:queue', (p) => queueMoves.push(p));
    let scenePushes = 0;
    wall.client.socket.on('scene:updated', () => scenePushes++);

    // Five raters: the low stream is excellent, the top one poor.
    for (let r = 0; r < 5; r++) {
      for (let k = 0; k < 3; k++) {
        const item = (await next(rater(500 + r))).body;
        const value = item.streamId === low.id ? 5 : item.streamId === top.id ? 1 : 3;
        await rate(item.queueId, rater(500 + r), value);
      }
    }
    await expect.poll(() => queueMoves.length).toBeGreaterThan(0);
    expect(queueMoves.at(-1)).toMatchObject({ completedToday: expect.any(Number), pending: expect.any(Number) });
    await wall.waitFor((s) => (s as WallState | null)?.streams[0]?.id === low.id, 10_000);
    await app.hub!.idle();
    expect((wall.state as WallState).streams.map((s) => s.id)).toEqual([low.id, middle.id]);
    expect(scenePushes).toBe(1);
    const lifted = await app.orm.em.fork().findOneOrFail(Stream, { id: low.id });
    expect(lifted.humanScore!).toBeGreaterThan(4);
    expect(lifted.qualityScore!).toBeGreaterThan(70);
    expect(lifted.autoScore).toBe(60); // both halves stay visible
  }, 30_000);
});
