import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ErrorDto, SceneDto, SceneStreamDto } from '../../src/shared/api/index.ts';
import { Scene, SceneStream } from '../../src/modules/scenes/scene.entity.ts';
import { seed } from '../../src/modules/seed/seed.ts';
import { createLogger } from '../../src/logger.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { buildScene, buildStream } from '../support/factories.ts';

let app: TestApp;
let defaultId: number;
beforeAll(async () => {
  app = await startTestApp();
  await seed(app.orm.em.fork(), { demo: false, logger: createLogger('silent') });
  defaultId = (await app.request<{ scene_id: number }>('GET', '/api/config/default-scene')).body.scene_id;
});
afterAll(async () => app?.close());

const sceneCount = () => app.orm.em.fork().count(Scene, {});

describe('POST /api/scenes', () => {
  it('creates a scene with the editor defaults (manual, max 5, grid, active) and a slug', async () => {
    const res = await app.request<SceneDto>('POST', '/api/scenes', { name: ' Ocean Life ', description: 'Reefs' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      name: 'Ocean Life', slug: 'ocean-life', description: 'Reefs', prompt: null, selection_algorithm: 'manual',
      max_streams: 5, layout_type: 'grid', active: true, stream_ids: [], is_default: false,
    });
    expect(app.published).toContainEqual(expect.objectContaining({ type: 'scene.created', sceneId: res.body.id }));
  });

  it('makes the slug unique against other scenes: -1, -2', async () => {
    const second = await app.request<SceneDto>('POST', '/api/scenes', { name: 'Ocean life!' });
    const third = await app.request<SceneDto>('POST', '/api/scenes', { name: 'OCEAN   LIFE' });
    expect([second.body.slug, third.body.slug]).toEqual(['ocean-life-1', 'ocean-life-2']);
  });

  it('stores no slug for a name without letters or digits; the scene is reached by id', async () => {
    const res = await app.request<SceneDto>('POST', '/api/scenes', { name: '★★★', selection_algorithm: 'recent' });
    expect(res.body.slug).toBeNull();
    expect((await app.request<SceneDto>('GET', `/api/scenes/${res.body.id}`)).body.name).toBe('★★★');
  });

  it('stores layout_type and the slots in order, empty slots kept', async () => {
    const em = app.orm.em.fork();
    const [a, b] = [await buildStream(em), await buildStream(em)];
    const res = await app.request<SceneDto>('POST', '/api/scenes', {
      name: 'Slots', layout_type: 'mosaic', stream_ids: [a.id, null, b.id],
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ layout_type: 'mosaic', stream_ids: [a.id, null, b.id] });
    const streams = await app.request<SceneStreamDto[]>('GET', `/api/scenes/${res.body.slug}/streams`);
    expect(streams.body.map((s) => [s.id, s.position])).toEqual([[a.id, 1], [b.id, 2]]);
  });

  it.each([
    ['a missing name', {}, /^name: Scene name is required/],
    ['a blank name', { name: '   ' }, /^name: Scene name is required/],
    ['an unknown algorithm', { name: 'X', selection_algorithm: 'random' }, /^selection_algorithm: /],
    ['an unknown layout', { name: 'X', layout_type: 'carousel' }, /^layout_type: /],
    ['max_streams above 5', { name: 'X', max_streams: 6 }, /^max_streams: /],
    ['max_streams of 0', { name: 'X', max_streams: 0 }, /^max_streams: /],
    ['more than 5 slots', { name: 'X', stream_ids: [1, 2, 3, 4, 5, 6] }, /^stream_ids: A scene holds at most 5 streams/],
    ['the same stream twice', { name: 'X', stream_ids: [1, 1] }, /^stream_ids: A stream can fill only one slot/],
  ])('answers 400 for %s and creates nothing', async (_case, body, message) => {
    const before = await sceneCount();
    const res = await app.request<ErrorDto>('POST', '/api/scenes', body);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(message);
    expect(await sceneCount()).toBe(before);
  });

  it('answers 404 for a stream that does not exist, and creates nothing', async () => {
    const before = await sceneCount();
    const res = await app.request<ErrorDto>('POST', '/api/scenes', { name: 'X', stream_ids: [777777] });
    expect([res.status, res.body.error]).toEqual([404, 'stream_ids: Unknown stream 777777']);
    expect(await sceneCount()).toBe(before);
  });
});

describe('GET /api/scenes and /api/scenes/:idOrSlug', () => {
  it('lists every scene with its slots and marks the default', async () => {
    const res = await app.request<SceneDto[]>('GET', '/api/scenes');
    expect(res.status).toBe(200);
    expect(res.body.filter((s) => s.is_default).map((s) => s.id)).toEqual([defaultId]);
  });

  it('finds an active scene by slug or by id', async () => {
    const scene = await buildScene(app.orm.em.fork(), { name: 'Find Me' });
    expect((await app.request<SceneDto>('GET', '/api/scenes/find-me')).body.id).toBe(scene.id);
    expect((await app.request<SceneDto>('GET', `/api/scenes/${scene.id}`)).body.slug).toBe('find-me');
  });

  it('prefers a slug made of digits over an id', async () => {
    const numeric = await buildScene(app.orm.em.fork(), { name: String(defaultId) });
    expect((await app.request<SceneDto>('GET', `/api/scenes/${defaultId}`)).body.id).toBe(numeric.id);
  });

  it('answers 404 for an unknown or inactive scene', async () => {
    const inactive = await buildScene(app.orm.em.fork(), { name: 'Hidden', active: false });
    const res = await app.request<ErrorDto>('GET', '/api/scenes/nowhere');
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('Scene not found: nowhere');
    expect((await app.request('GET', '/api/scenes/hidden')).status).toBe(404);
    expect((await app.request('GET', `/api/scenes/${inactive.id}`)).status).toBe(404);
    expect((await app.request('GET', '/api/scenes/99999999999/streams')).status).toBe(404);
  });

  it('filters by active', async () => {
    const active = await app.request<SceneDto[]>('GET', '/api/scenes?active=true');
    expect(active.body.length).toBeGreaterThan(0);
    expect(active.body.every((s) => s.active)).toBe(true);
  });
});

describe('GET /api/scenes/:idOrSlug/streams resolves by algorithm', () => {
  it('recent: the newest active streams up to max_streams, positions 1..n', async () => {
    const em = app.orm.em.fork();
    const base = Date.now() + 60_000; // newer than anything else in this file
    const newest = [];
    for (let i = 0; i < 4; i++) newest.push(await buildStream(em, { createdAt: new Date(base + i * 1000) }));
    await buildStream(em, { createdAt: new Date(base + 10_000), active: false });
    const scene = await buildScene(em, { name: 'Recent Three', selectionAlgorithm: 'recent', maxStreams: 3 });
    const res = await app.request<SceneStreamDto[]>('GET', `/api/scenes/${scene.slug}/streams`);
    expect(res.body.map((s) => [s.id, s.position])).toEqual([[newest[3]!.id, 1], [newest[2]!.id, 2], [newest[1]!.id, 3]]);
  });

  it('ranked: best quality score first, unanalysed last', async () => {
    const em = app.orm.em.fork();
    const top = await buildStream(em, { qualityScore: 99.5 });
    const second = await buildStream(em, { qualityScore: 99 });
    await buildStream(em, { qualityScore: 99.9, active: false });
    const scene = await buildScene(em, { name: 'Ranked Two', selectionAlgorithm: 'ranked', maxStreams: 2 });
    const res = await app.request<SceneStreamDto[]>('GET', `/api/scenes/${scene.id}/streams`);
    expect(res.body.map((s) => s.id)).toEqual([top.id, second.id]);
  });

  it('manual: placed active streams in slot order', async () => {
    const em = app.orm.em.fork();
    const [a, b, c] = [await buildStream(em), await buildStream(em, { active: false }), await buildStream(em)];
    const scene = await buildScene(em, { name: 'Manual Mix', streams: [c, b, null, a] });
    const res = await app.request<SceneStreamDto[]>('GET', `/api/scenes/${scene.slug}/streams`);
    expect(res.body.map((s) => [s.id, s.position])).toEqual([[c.id, 1], [a.id, 2]]);
  });
});

describe('PUT /api/scenes', () => {
  it('renames (new slug), changes layout and replaces the slots in one save', async () => {
    const em = app.orm.em.fork();
    const [a, b, c] = [await buildStream(em), await buildStream(em), await buildStream(em)];
    const scene = await buildScene(em, { name: 'Old Name', streams: [a, b] });
    const res = await app.request<{ success: boolean; scene: SceneDto }>('PUT', '/api/scenes', {
      id: scene.id, name: 'New Name', layout_type: 'feature', stream_ids: [c.id, a.id],
    });
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    expect(res.body.scene).toMatchObject({ name: 'New Name', slug: 'new-name', layout_type: 'feature', stream_ids: [c.id, a.id] });
    expect(app.published).toContainEqual(expect.objectContaining({ type: 'scene.updated', sceneId: scene.id }));
  });

  it('keeps its own slug when saved with the same name', async () => {
    const scene = await buildScene(app.orm.em.fork(), { name: 'Stable' });
    const res = await app.request<{ scene: SceneDto }>('PUT', '/api/scenes', { id: scene.id, name: 'Stable' });
    expect(res.body.scene.slug).toBe('stable');
  });

  it('rolls the whole save back when a slot names an unknown stream', async () => {
    const em = app.orm.em.fork();
    const a = await buildStream(em);
    const scene = await buildScene(em, { name: 'Atomic', streams: [a] });
    const res = await app.request<ErrorDto>('PUT', '/api/scenes', { id: scene.id, name: 'Renamed', stream_ids: [a.id, 888888] });
    expect(res.status).toBe(404);
    const check = app.orm.em.fork();
    expect((await check.findOneOrFail(Scene, scene.id)).name).toBe('Atomic');
    expect(await check.count(SceneStream, { scene: scene.id })).toBe(1);
  });

  it('refuses to deactivate the default scene (409)', async () => {
    const res = await app.request<ErrorDto>('PUT', '/api/scenes', { id: defaultId, active: false });
    expect(res.status).toBe(409);
    expect(res.body.error).toMatch(/default scene cannot be deactivated/);
  });

  it('answers 404 for an unknown scene', async () => {
    expect((await app.request('PUT', '/api/scenes', { id: 565656, name: 'X' })).status).toBe(404);
  });
});

describe('DELETE /api/scenes (soft delete)', () => {
  it('sets active false and keeps the row', async () => {
    const scene = await buildScene(app.orm.em.fork(), { name: 'Soon Gone' });
    const res = await app.request('DELETE', '/api/scenes', { id: scene.id });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true });
    expect((await app.orm.em.fork().findOneOrFail(Scene, scene.id)).active).toBe(false);
    expect((await app.request('GET', '/api/scenes/soon-gone')).status).toBe(404);
    expect(app.published).toContainEqual({ type: 'scene.deleted', sceneId: scene.id, name: scene.name });
  });

  it('refuses to delete the default scene with 409 and a clear message', async () => {
    const res = await app.request<ErrorDto>('DELETE', '/api/scenes', { id: defaultId });
    expect(res.status).toBe(409);
    expect(res.body.error).toBe('The default scene cannot be deleted. Choose another default scene first.');
    expect((await app.orm.em.fork().findOneOrFail(Scene, defaultId)).active).toBe(true);
  });

  it('answers 404 for an unknown scene', async () => {
    expect((await app.request('DELETE', '/api/scenes', { id: 343434 })).status).toBe(404);
  });
});

describe('screens read the scene controller memory, and see every write at once', () => {
  it('a stream edit shows on the next read of a scene that shows it', async () => {
    const em = app.orm.em.fork();
    const stream = await buildStream(em, { name: 'Before edit' });
    const scene = await buildScene(em, { name: 'Cache Check', streams: [stream] });
    const first = await app.request<SceneStreamDto[]>('GET', `/api/scenes/${scene.slug}/streams`);
    expect(first.body[0]!.name).toBe('Before edit');
    await app.request('PUT', '/api/streams', { id: stream.id, name: 'After edit' });
    const second = await app.request<SceneStreamDto[]>('GET', `/api/scenes/${scene.slug}/streams`);
    expect(second.body[0]!.name).toBe('After edit');
  });

  it('a slot change and a default switch show on the next read', async () => {
    const em = app.orm.em.fork();
    const [a, b] = [await buildStream(em), await buildStream(em)];
    const scene = await buildScene(em, { name: 'Cache Slots', streams: [a] });
    expect((await app.request<SceneStreamDto[]>('GET', `/api/scenes/${scene.id}/streams`)).body.map((s) => s.id)).toEqual([a.id]);
    await app.request('PUT', '/api/scenes', { id: scene.id, stream_ids: [b.id, a.id] });
    expect((await app.request<SceneStreamDto[]>('GET', `/api/scenes/${scene.id}/streams`)).body.map((s) => s.id)).toEqual([b.id, a.id]);

    const before = (await app.request<{ scene_id: number }>('GET', '/api/config/default-scene')).body.scene_id;
    await app.request('PUT', '/api/config/default-scene', { scene_id: scene.id });
    expect((await app.anonymous('GET', '/api/config/default-scene')).body).toEqual({ scene_id: scene.id });
    expect((await app.request<SceneDto>('GET', `/api/scenes/${scene.id}`)).body.is_default).toBe(true);
    await app.request('PUT', '/api/config/default-scene', { scene_id: before });
  });

  it('a deleted scene is gone from the next read', async () => {
    const scene = await buildScene(app.orm.em.fork(), { name: 'Cache Delete' });
    expect((await app.request('GET', '/api/scenes/cache-delete/streams')).status).toBe(200);
    await app.request('DELETE', '/api/scenes', { id: scene.id });
    expect((await app.request('GET', '/api/scenes/cache-delete/streams')).status).toBe(404);
  });
});
