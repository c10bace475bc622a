import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SceneSnapshots } from '../../src/modules/scenes/scene-snapshots.ts';
import { Stream } from '../../src/modules/streams/stream.entity.ts';
import { loadSceneSnapshot } from '../../src/modules/scenes/scene-queries.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { buildScene, buildStream } from '../support/factories.ts';
import { countSceneReads } from '../support/scene-reads.ts';

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

  it('reads a default just switched to a scene of another algorithm in one round trip when told which scene it is, and still reads the default as it is', async () => {
    const em = app.orm.em.fork();
    const stream = await buildStream(em, { name: 'Switched to' });
    const manual = await buildScene(em, { name: 'Switch manual', streams: [stream] });
    const recent = await buildScene(em, { name: 'Switch recent', selectionAlgorithm: 'recent' });
    const setDefault = async (id: number) => expect((await app.request('PUT', '/api/config/default-scene', { scene_id: id })).status).toBe(200);
    const reads = await countSceneReads(app.orm);
    try {
      const readDefault = async (likely?: number) => {
        reads.reset();
        const snapshot = await loadSceneSnapshot(app.orm.em.fork(), 'default', Date.now(), likely);
        return { name: snapshot?.scene.name, reads: reads.count };
      };
      // Each scene read once by id: its algorithm is known.
      await loadSceneSnapshot(app.orm.em.fork(), { id: manual.id });
      await loadSceneSnapshot(app.orm.em.fork(), { id: recent.id });
      await setDefault(recent.id);
      expect(await readDefault()).toEqual({ name: 'Switch recent', reads: expect.any(Number) });
      await setDefault(manual.id);
      // By the default's last statement (recent's): a second round trip.
      expect(await readDefault()).toEqual({ name: 'Switch manual', reads: 2 });
      await setDefault(recent.id);
      // Told the scene it was switched to: its statement first, one round trip.
      expect(await readDefault(recent.id)).toEqual({ name: 'Switch recent', reads: 1 });
      // A hint that is out of date (the default moved on since) reads what the default is now.
      await setDefault(manual.id);
      expect(await readDefault(recent.id)).toEqual({ name: 'Switch manual', reads: 2 });
    } finally {
      reads.stop();
    }
  });
});
