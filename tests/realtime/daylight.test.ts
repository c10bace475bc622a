/**
 * A daylight scene re-resolves at the next sunrise or sunset among its candidates, on a clock
 * the test controls (no waiting for the sun): a wall on it loses the camera whose sun set.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SceneDto } from '../../src/shared/api/index.ts';
import type { WallState } from '../../src/shared/events.ts';
import { seed } from '../../src/modules/seed/seed.ts';
import { createLogger } from '../../src/logger.ts';
import { nextCrossing } from '../../src/shared/scenes/daylight.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { buildStream } from '../support/factories.ts';
import { openScreen, type TestScreen } from '../support/screens.ts';
import { scenesModule } from '../../src/modules/scenes/scenes.module.ts';

let clock = Date.parse('2026-06-21T12:00:00Z');
let app: TestApp;
let wall: TestScreen | undefined;
const KOLKATA = { latitude: 22.57, longitude: 88.36 }; // 17:30 local at 12:00 UTC: its sunset comes first
const ACCRA = { latitude: 5.6, longitude: -0.19 }; // noon

beforeAll(async () => {
  app = await startTestApp({ hub: true, jobs: { enabled: false }, appOptions: { now: () => clock } });
  await seed(app.orm.em.fork(), { demo: false, logger: createLogger('silent') });
});
afterAll(async () => {
  wall?.close();
  await app?.close();
});

describe('a scene that follows the sun', () => {
  it('re-resolves at the computed crossing', async () => {
    const em = app.orm.em.fork();
    const kolkata = await buildStream(em, { name: 'Sundarbans tiger cam', ...KOLKATA, qualityScore: 90 });
    const accra = await buildStream(em, { name: 'Volta lagoon cam', ...ACCRA, qualityScore: 60 });
    await buildStream(em, { name: 'Cam without a place', qualityScore: 99 });
    const scene = (await app.request<SceneDto>('POST', '/api/scenes', { name: 'Sunlit', selection_algorithm: 'daylight' })).body;
    expect(scene.selection_algorithm).toBe('daylight');

    wall = openScreen(app.baseUrl, { kind: 'wall', sceneSlug: scene.slug! });
    const before = (await wall.waitFor((s) => ((s as WallState | null)?.streams.length ?? 0) > 0)) as WallState;
    expect(before.streams.map((s) => s.id)).toEqual([kolkata.id, accra.id]);

    const crossing = nextCrossing([KOLKATA, ACCRA], clock)!;
    expect(new Date(crossing).toISOString().slice(0, 13)).toBe('2026-06-21T12'); // Kolkata's sunset, about 18:20 local
    clock = crossing + 1_000;
    expect(await app.app.use(scenesModule).daylight!.applyCrossing()).toEqual([scene.id]);
    const after = (await wall.waitFor((s) => (s as WallState).streams.length === 1)) as WallState;
    expect(after.streams.map((s) => s.id)).toEqual([accra.id]);
    expect(wall.messages.at(-1)).toMatchObject({ type: 'scene', payload: { at: expect.any(Number) } }); // flipped in step, like any change
  });
});
