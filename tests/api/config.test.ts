import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ErrorDto } from '../../src/shared/api/index.ts';
import { SystemConfig } from '../../src/modules/config/system-config.entity.ts';
import { seed } from '../../src/modules/seed/seed.ts';
import { createLogger } from '../../src/logger.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { buildScene } from '../support/factories.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
  await seed(app.orm.em.fork(), { demo: false, logger: createLogger('silent') });
});
afterAll(async () => app?.close());

describe('/api/config/default-scene', () => {
  it('reads the default scene id', async () => {
    const res = await app.request<{ scene_id: number }>('GET', '/api/config/default-scene');
    expect(res.status).toBe(200);
    expect(res.body.scene_id).toBeGreaterThan(0);
  });

  it('switches the default to another active scene and records who and when', async () => {
    const scene = await buildScene(app.orm.em.fork(), { name: 'Next Default' });
    const res = await app.request('PUT', '/api/config/default-scene', { scene_id: scene.id });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ scene_id: scene.id });
    expect((await app.request('GET', '/api/config/default-scene')).body).toMatchObject({ scene_id: scene.id, updated_by: 'api-token' });
    const row = await app.orm.em.fork().findOneOrFail(SystemConfig, { key: 'default_scene_id' });
    expect(row.value).toBe(String(scene.id));
    expect(row.updatedBy).toBe('api-token'); // the ADMIN_API_TOKEN's actor
    expect(app.published).toContainEqual({ type: 'default-scene.changed', sceneId: scene.id });
  });

  it('records the real actor: a named API token', async () => {
    const scene = await buildScene(app.orm.em.fork(), { name: 'Token Default' });
    const created = await app.request<{ token: string }>('POST', '/api/auth/tokens', { name: 'deploy-bot' });
    expect(created.status).toBe(201);
    const res = await app.anonymous('PUT', '/api/config/default-scene', { scene_id: scene.id }, { headers: { authorization: `Bearer ${created.body.token}` } });
    expect(res.status).toBe(200);
    const row = await app.orm.em.fork().findOneOrFail(SystemConfig, { key: 'default_scene_id' });
    expect(row.updatedBy).toBe('token:deploy-bot');
  });

  it('publishes nothing when the default does not change', async () => {
    const current = (await app.request<{ scene_id: number }>('GET', '/api/config/default-scene')).body.scene_id;
    const before = app.published.length;
    expect((await app.request('PUT', '/api/config/default-scene', { scene_id: current })).status).toBe(200);
    expect(app.published.length).toBe(before);
  });

  it.each([
    ['an inactive scene', async () => (await buildScene(app.orm.em.fork(), { active: false })).id, 409, /inactive scene cannot be the default/],
    ['an unknown scene', async () => 919191, 404, /^Scene not found/],
    ['a non-numeric id', async () => 'abc', 400, /^scene_id: /],
  ])('refuses %s', async (_case, id, status, message) => {
    const res = await app.request<ErrorDto>('PUT', '/api/config/default-scene', { scene_id: await id() });
    expect(res.status).toBe(status);
    expect(res.body.error).toMatch(message);
  });
});
