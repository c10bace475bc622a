import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SceneSnapshots } from '../../src/modules/scenes/scene-snapshots.ts';
import { Stream } from '../../src/modules/streams/stream.entity.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { buildScene, buildStream } from '../support/factories.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => app?.close());

describe('SceneSnapshots', () => {
  it('serves repeated reads from memory until invalidated', async () => {
    const em = app.orm.em.fork();
    const stream = await buildStream(em, { name: 'Cached' });
    const scene = await buildScene(em, { name: 'Memory', streams: [stream] });
    const snapshots = new SceneSnapshots(app.orm);
    expect((await snapshots.byRef('memory'))!.streams[0]!.name).toBe('Cached');
    await app.orm.em.fork().nativeUpdate(Stream, { id: stream.id }, { name: 'Changed behind its back' });
    expect((await snapshots.byRef('memory'))!.streams[0]!.name).toBe('Cached');
    expect((await snapshots.byId(scene.id))!.streams[0]!.name).toBe('Changed behind its back'); // first read by id
    snapshots.invalidate();
    expect((await snapshots.byRef('memory'))!.streams[0]!.name).toBe('Changed behind its back');
  });

  it('expires entries after its TTL, so a write that bypassed the publisher shows up', async () => {
    const em = app.orm.em.fork();
    const stream = await buildStream(em, { name: 'Old' });
    await buildScene(em, { name: 'Short Lived', streams: [stream] });
    const snapshots = new SceneSnapshots(app.orm, { ttlMs: 50 });
    expect((await snapshots.byRef('short-lived'))!.streams[0]!.name).toBe('Old');
    await app.orm.em.fork().nativeUpdate(Stream, { id: stream.id }, { name: 'New' });
    await new Promise((r) => setTimeout(r, 80));
    expect((await snapshots.byRef('short-lived'))!.streams[0]!.name).toBe('New');
  });

  it('does not remember references that found nothing (unbounded keys from the outside)', async () => {
    const snapshots = new SceneSnapshots(app.orm);
    expect(await snapshots.byRef('no-such-scene')).toBeNull();
    await buildScene(app.orm.em.fork(), { name: 'No Such Scene' });
    expect((await snapshots.byRef('no-such-scene'))?.scene.name).toBe('No Such Scene');
  });
});
