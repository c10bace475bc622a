/**
 * `ranked` shows the best cameras now, through the real app and analyzer: over a still meadow and
 * the same meadow with an animal (equal picture quality), a one-tile ranked scene shows the
 * moving one; when the animal moves to the other camera it switches — but not before the tile
 * has been on screen the minimum time — and each change says why, in the scene and the activity
 * log. The category's normal comes from other still meadows analysed first (a new camera has
 * no history of its own).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ActivityDto, AnalyzeDto, SceneDto, SceneStreamDto, StreamDto } from '../../src/shared/api/index.ts';
import { scenesModule } from '../../src/modules/scenes/scenes.module.ts';
import { Stream } from '../../src/modules/streams/stream.entity.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { buildStream } from '../support/factories.ts';
import { serveCorpus, type CorpusServer } from '../support/quality-corpus.ts';

const MIN_ON_SCREEN_MS = 60_000;
let app: TestApp;
let corpus: CorpusServer;
let clock = Date.parse('2026-11-25T12:00:00Z');

beforeAll(async () => {
  corpus = await serveCorpus();
  app = await startTestApp({
    jobs: true,
    appOptions: { fetchAllowHosts: ['127.0.0.1'], now: () => clock },
    settings: { quality: { concurrency: 2, sweepCron: null, rankingBudget: { everyMinutes: 0, streams: 1 } }, scenes: { minOnScreenMs: MIN_ON_SCREEN_MS, margin: 10, checkSeconds: 3600 } },
  });
  await app.orm.em.fork().nativeUpdate(Stream, {}, { active: false });
}, 120_000);
afterAll(async () => {
  await app?.close();
  await corpus?.close();
});

const analyze = async (streamId: number) => {
  const res = await app.request<AnalyzeDto>('POST', '/api/quality?action=analyze', { streamId, force: true, wait: true });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
};
const streamOf = async (id: number) => (await app.request<StreamDto>('GET', `/api/streams/${id}`)).body;

describe('a ranked scene over a still and a moving camera of equal quality', () => {
  it('shows the moving one, and follows the animal to the other camera no sooner than the minimum time', async () => {
    const em = app.orm.em.fork();
    // The category's normal at this hour: still meadows (three cameras, two analyses each).
    const others = await Promise.all([1, 2, 3].map((n) => buildStream(em, { name: `Other meadow ${n}`, url: corpus.alias(`other${n}`), category: 'wildlife', active: false })));
    others.forEach((_, n) => corpus.setAlias(`other${n + 1}`, 'meadow_still'));
    for (const other of others) for (let i = 0; i < 2; i++) await analyze(other.id);

    corpus.setAlias('a', 'meadow_animal');
    corpus.setAlias('b', 'meadow_still');
    const a = await buildStream(em, { name: 'Meadow A', url: corpus.alias('a'), category: 'wildlife' });
    const b = await buildStream(em, { name: 'Meadow B', url: corpus.alias('b'), category: 'wildlife' });
    await Promise.all([analyze(a.id), analyze(b.id)]);
    const [sa, sb] = [await streamOf(a.id), await streamOf(b.id)];
    expect(sa).toMatchObject({ activity_basis: 'category' });
    expect(sa.activity_ratio!).toBeGreaterThan(2 * (sb.activity_ratio ?? 0));

    const scene = (await app.request<SceneDto>('POST', '/api/scenes', { name: 'AI Ranked', selection_algorithm: 'ranked', max_streams: 1 })).body;
    const ranking = app.app.use(scenesModule).ranking;
    const shown = async () => (await app.request<SceneStreamDto[]>('GET', `/api/scenes/${scene.id}/streams`)).body.map((s) => s.id);
    await ranking.rerank();
    expect(await shown()).toEqual([a.id]);
    const picked = (await app.request<SceneDto>('GET', `/api/scenes/${scene.id}`)).body.picks;
    expect(picked).toEqual([expect.objectContaining({ position: 1, stream_id: a.id })]);
    expect(picked[0]!.reason).toMatch(/^Meadow A: activity [\d.]+× its category's usual at this hour/);

    // The animal walks over to B.
    corpus.setAlias('a', 'meadow_still');
    corpus.setAlias('b', 'meadow_animal');
    await Promise.all([analyze(a.id), analyze(b.id)]);
    clock += MIN_ON_SCREEN_MS - 1_000;
    await ranking.rerank();
    expect(await shown(), 'before the minimum time').toEqual([a.id]);
    clock += 2_000;
    await ranking.rerank();
    expect(await shown(), 'after it').toEqual([b.id]);

    const scenePicks = (await app.request<SceneDto>('GET', `/api/scenes/${scene.id}`)).body.picks;
    expect(scenePicks[0]!.reason).toMatch(/^Meadow B in place of Meadow A: activity/);
    const log = (await app.request<ActivityDto[]>('GET', '/api/activity?kind=scene')).body;
    expect(log.find((entry) => entry.action === 'scene.picks-changed' && entry.subject_name?.includes('Meadow B in place of Meadow A'))).toBeDefined();
  }, 180_000);
});
