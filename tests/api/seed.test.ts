import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SceneDto, SceneStreamDto } from '../../src/shared/api/index.ts';
import { Scene, SceneStream } from '../../src/modules/scenes/scene.entity.ts';
import { Stream } from '../../src/modules/streams/stream.entity.ts';
import { seed } from '../../src/modules/seed/seed.ts';
import { createLogger } from '../../src/logger.ts';
import { startTestApp, type TestApp } from '../support/app.ts';

const logger = createLogger('silent');
let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => app?.close());

const counts = async () => {
  const em = app.orm.em.fork();
  return { streams: await em.count(Stream, {}), scenes: await em.count(Scene, {}), slots: await em.count(SceneStream, {}) };
};

describe('seed (spec §7 Init + demo data)', () => {
  it('creates the Default scene (recent, max 5) as default_scene_id, and the demo pool', async () => {
    await seed(app.orm.em.fork(), { demo: true, logger });
    const scenes = (await app.request<SceneDto[]>('GET', '/api/scenes')).body;
    const defaultScene = scenes.find((s) => s.name === 'Default');
    expect(defaultScene).toMatchObject({ selection_algorithm: 'recent', max_streams: 5, is_default: true, slug: 'default' });
    expect(scenes.map((s) => s.selection_algorithm).sort()).toEqual(['manual', 'manual', 'ranked', 'recent']);
    const streams = (await app.request<{ category: string }[]>('GET', '/api/streams')).body;
    expect(streams).toHaveLength(19);
    expect(new Set(streams.map((s) => s.category))).toEqual(new Set(['wildlife', 'ocean', 'volcano', 'waterfall', 'nature']));
  });

  it('fills the default wall with five reliable cams', async () => {
    const wall = (await app.request<SceneStreamDto[]>('GET', '/api/scenes/default/streams')).body;
    expect(wall.map((s) => s.name)).toEqual([
      'Djuma Gowrie Dam waterhole',
      'Niagara Falls Live',
      'Namib Desert waterhole',
      'Monterey Bay Aquarium',
      'Mount Fuji over Lake Kawaguchi',
    ]);
    expect(wall.map((s) => s.position)).toEqual([1, 2, 3, 4, 5]);
  });

  it('is idempotent: a second start adds nothing', async () => {
    const before = await counts();
    await seed(app.orm.em.fork(), { demo: true, logger });
    expect(await counts()).toEqual(before);
  });

  it('does not bring back demo streams an admin deleted', async () => {
    const streams = (await app.request<{ id: number }[]>('GET', '/api/streams')).body;
    expect((await app.request('DELETE', '/api/streams', { id: streams[0]!.id })).status).toBe(200);
    const before = await counts();
    await seed(app.orm.em.fork(), { demo: true, logger });
    expect(await counts()).toEqual(before);
  });

  it('runs safely when several nodes start at once', async () => {
    const before = await counts();
    await Promise.all([1, 2, 3].map(() => seed(app.orm.em.fork(), { demo: true, logger })));
    expect(await counts()).toEqual(before);
  });
});

describe('seed without demo data', () => {
  it('creates only the Default scene and its config', async () => {
    const other = await startTestApp();
    try {
      await seed(other.orm.em.fork(), { demo: false, logger });
      const scenes = (await other.request<SceneDto[]>('GET', '/api/scenes')).body;
      expect(scenes.map((s) => [s.name, s.is_default])).toEqual([['Default', true]]);
      expect((await other.request<unknown[]>('GET', '/api/streams')).body).toEqual([]);
      expect((await other.request<unknown[]>('GET', '/api/scenes/default/streams')).body).toEqual([]);
    } finally {
      await other.close();
    }
  });
});
