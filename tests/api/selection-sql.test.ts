/**
 * The database pre-selects candidates for recent and ranked scenes; this property checks that
 * the result always equals the pure rule applied to the whole pool.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Scene } from '../../src/modules/scenes/scene.entity.ts';
import { loadSceneSnapshot } from '../../src/modules/scenes/scene-queries.ts';
import { presentStream } from '../../src/modules/streams/stream.presenter.ts';
import { Stream } from '../../src/modules/streams/stream.entity.ts';
import { selectSceneStreams } from '../../src/shared/scenes/selection.ts';
import { DEFAULT_SCENE_KEY } from '../../src/shared/constants.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { buildScene, buildStream } from '../support/factories.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => app?.close());

const streamSpec = fc.record({
  active: fc.boolean(),
  minute: fc.integer({ min: 0, max: 5 }), // few values: many ties in creation time
  score: fc.option(fc.integer({ min: 0, max: 4 }).map((n) => n * 25), { nil: null }),
});

describe('loadSceneSnapshot (SQL pre-selection) agrees with selectSceneStreams on the whole pool', () => {
  it.each(['recent', 'ranked'] as const)('%s', async (algorithm) => {
    await fc.assert(
      fc.asyncProperty(fc.array(streamSpec, { maxLength: 12 }), fc.integer({ min: 1, max: 5 }), async (specs, max) => {
        const em = app.orm.em.fork();
        await em.nativeDelete(Scene, {});
        await em.nativeDelete(Stream, {});
        for (const spec of specs) {
          await buildStream(em, { active: spec.active, qualityScore: spec.score, createdAt: new Date(Date.UTC(2026, 0, 1, 0, spec.minute)) });
        }
        const scene = await buildScene(em, { selectionAlgorithm: algorithm, maxStreams: max });
        const fromDb = (await loadSceneSnapshot(app.orm.em.fork(), { id: scene.id }))!.streams;
        const all = (await app.orm.em.fork().find(Stream, {})).map(presentStream);
        const expected = selectSceneStreams({ selection_algorithm: algorithm, max_streams: max }, all, []);
        expect(fromDb.map((s) => [s.id, s.position])).toEqual(expected.map((s) => [s.id, s.position]));
      }),
      { numRuns: 40 },
    );
  });
});

describe('loadSceneSnapshot reads each algorithm with its own statement', () => {
  it('follows a scene whose algorithm changes under the same id, slug and default reference', async () => {
    const em = app.orm.em.fork();
    await em.nativeDelete(Scene, {});
    await em.nativeDelete(Stream, {});
    const old = await buildStream(em, { qualityScore: 90, createdAt: new Date(Date.UTC(2026, 0, 1)) });
    const fresh = await buildStream(em, { qualityScore: 10, createdAt: new Date(Date.UTC(2026, 0, 2)) });
    const placed = await buildStream(em, { active: true, qualityScore: 50, createdAt: new Date(Date.UTC(2025, 0, 1)) });
    const scene = await buildScene(em, { name: 'Shifting', selectionAlgorithm: 'recent', maxStreams: 1, streams: [placed] });
    await app.orm.em.fork().getConnection().execute(`insert into system_config (key, value) values ('${DEFAULT_SCENE_KEY}', '${scene.id}') on conflict (key) do update set value = excluded.value`);
    const first = async () => {
      const shown = await Promise.all([{ id: scene.id }, { ref: 'shifting' }, 'default' as const].map((where) => loadSceneSnapshot(app.orm.em.fork(), where)));
      return shown.map((snapshot) => [snapshot!.scene.selection_algorithm, snapshot!.streams[0]?.id]);
    };
    // Each reference is read twice per algorithm: the first read may guess the old one, the second must not need to.
    for (const [algorithm, expected] of [['recent', fresh.id], ['ranked', old.id], ['manual', placed.id], ['recent', fresh.id]] as const) {
      await app.orm.em.fork().nativeUpdate(Scene, { id: scene.id }, { selectionAlgorithm: algorithm });
      expect(await first()).toEqual([[algorithm, expected], [algorithm, expected], [algorithm, expected]]);
      expect(await first()).toEqual([[algorithm, expected], [algorithm, expected], [algorithm, expected]]);
    }
  });
});
