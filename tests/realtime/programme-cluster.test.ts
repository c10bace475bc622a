/**
 * Two nodes on one PostgreSQL: a schedule boundary, fired on both nodes at once, switches the
 * screens of its group exactly once (one command, one Activity row, one state per screen, shown
 * at the boundary itself), screens of other groups do not move; a takeover reaches every screen
 * on both nodes, and its release returns each to its own rule. The boundary lies an hour ahead:
 * the instant comes from the boundary, not from waiting for it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ActivityDto, ScreenGroupDto } from '../../src/shared/api/index.ts';
import type { KioskState, WallState } from '../../src/shared/events.ts';
import { seed } from '../../src/modules/seed/seed.ts';
import { createLogger } from '../../src/logger.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { buildScene, buildStream } from '../support/factories.ts';
import { openScreen, type TestScreen } from '../support/screens.ts';
import { programmeModule } from '../../src/modules/programme/programme.module.ts';

let nodeA: TestApp;
let nodeB: TestApp;
let ocean: number;
let volcano: number;
let defaultScene: number;
const screens: TestScreen[] = [];

beforeAll(async () => {
  nodeA = await startTestApp({ hub: { cluster: true }, jobs: true });
  await seed(nodeA.orm.em.fork(), { demo: false, logger: createLogger('silent') });
  nodeB = await startTestApp({ hub: { cluster: true }, jobs: true, database: nodeA.db });
  const em = nodeA.orm.em.fork();
  const cams = await Promise.all([1, 2].map((n) => buildStream(em, { name: `Cluster cam ${n}` })));
  ocean = (await buildScene(em, { name: 'Ocean', streams: [cams[0]!] })).id;
  volcano = (await buildScene(em, { name: 'Volcano', streams: [cams[1]!] })).id;
  defaultScene = (await nodeA.request<{ scene_id: number }>('GET', '/api/config/default-scene')).body.scene_id;
});
afterAll(async () => {
  screens.forEach((s) => s.close());
  await nodeB?.close();
  await nodeA?.close();
});

const open = (node: TestApp, registration: Parameters<typeof openScreen>[1]) => {
  const screen = openScreen(node.baseUrl, registration);
  screens.push(screen);
  return screen;
};
const sceneOf = (state: unknown) => (state as WallState | KioskState | null)?.scene?.id ?? null;
const states = (s: TestScreen) => s.messages.filter((m) => m.type === 'state' || m.type === 'kiosk');

describe('a schedule boundary on two nodes', () => {
  it('switches its group once, at the boundary, and nothing else', async () => {
    const gallery = (await nodeA.request<ScreenGroupDto>('POST', '/api/screen-groups', { name: 'Gallery' })).body;
    const onA = open(nodeA, { kind: 'wall', device: 'gallery-wall-a1', group: 'gallery' });
    const onB = open(nodeB, { kind: 'kiosk', position: 1, device: 'gallery-kiosk-b1', group: 'gallery' });
    const elsewhere = open(nodeB, { kind: 'wall', device: 'hall-wall-b0002' });
    for (const s of [onA, onB, elsewhere]) await s.waitFor((st) => sceneOf(st) === defaultScene);

    const boundary = Math.ceil((Date.now() + 3_600_000) / 60_000) * 60_000;
    const entry = await nodeA.request('POST', '/api/schedules', {
      name: 'Gallery ocean hour', scene_id: ocean, target: { kind: 'groups', group_ids: [gallery.id] },
      when: { kind: 'once', starts_at: new Date(boundary).toISOString(), ends_at: new Date(boundary + 3_600_000).toISOString() },
    });
    expect(entry.status).toBe(201);
    await Promise.all([nodeA.hub!.idle(), nodeB.hub!.idle()]);
    const before = [onA, onB, elsewhere].map((s) => states(s).length);

    // Both nodes' queue workers fire the boundary at once: one applies it.
    const fired = await Promise.all([nodeA.app.use(programmeModule).boundaries!.applyBoundary(boundary), nodeB.app.use(programmeModule).boundaries!.applyBoundary(boundary)]);
    expect(fired.filter(Boolean)).toHaveLength(1);

    const a = await onA.waitFor((st) => sceneOf(st) === ocean);
    const b = await onB.waitFor((st) => sceneOf(st) === ocean);
    expect([(a as WallState).at, (b as KioskState).at]).toEqual([boundary, boundary]);
    await Promise.all([nodeA.hub!.idle(), nodeB.hub!.idle()]);
    expect([onA, onB, elsewhere].map((s, i) => states(s).length - before[i]!)).toEqual([1, 1, 0]);
    expect(sceneOf(elsewhere.state)).toBe(defaultScene);

    const rows = (await nodeB.request<ActivityDto[]>('GET', '/api/activity?kind=schedule&limit=50')).body.filter((r) => r.action === 'schedule.boundary');
    expect(rows).toHaveLength(1);
    expect(rows[0]?.subject_name).toBe('Started: Gallery ocean hour');

    // Fired again (a retried job): nothing happens.
    expect(await nodeB.app.use(programmeModule).boundaries!.applyBoundary(boundary)).toBe(false);

    // A screen of the group that registers after the push but before the boundary is decided as of the boundary.
    const late = open(nodeB, { kind: 'wall', device: 'gallery-wall-b9', group: 'gallery' });
    expect(sceneOf(await late.waitFor((st) => sceneOf(st) !== null))).toBe(ocean);
  });

  it('a takeover reaches every screen on both nodes; release returns each to its own rule', async () => {
    const grouped = open(nodeA, { kind: 'wall', device: 'gallery-wall-a1' });
    const plainB = open(nodeB, { kind: 'wall', device: 'hall-wall-b0002' });
    const kioskB = open(nodeB, { kind: 'kiosk', position: 1, device: 'hall-kiosk-b003' });
    await grouped.waitFor((st) => sceneOf(st) !== null);
    const own = sceneOf(grouped.state);
    await plainB.waitFor((st) => sceneOf(st) === defaultScene);
    await kioskB.waitFor((st) => sceneOf(st) === defaultScene);

    await nodeA.request('PUT', '/api/takeover', { scene_id: volcano, banner: 'Eruption' });
    for (const s of [grouped, plainB, kioskB]) await s.waitFor((st) => sceneOf(st) === volcano);
    await nodeB.request('DELETE', '/api/takeover');
    await grouped.waitFor((st) => sceneOf(st) === own);
    await plainB.waitFor((st) => sceneOf(st) === defaultScene);
    await kioskB.waitFor((st) => sceneOf(st) === defaultScene);
  });

  it("a takeover's end is a boundary too: its screens return then, and the release is logged once", async () => {
    const plainA = open(nodeA, { kind: 'wall', device: 'hall-wall-a0003' });
    await plainA.waitFor((st) => sceneOf(st) === defaultScene);
    const ends = Math.ceil((Date.now() + 3 * 3_600_000) / 60_000) * 60_000;
    await nodeB.request('PUT', '/api/takeover', { scene_id: volcano, ends_at: new Date(ends).toISOString() });
    await plainA.waitFor((st) => sceneOf(st) === volcano);
    const fired = await Promise.all([nodeA.app.use(programmeModule).boundaries!.applyBoundary(ends), nodeB.app.use(programmeModule).boundaries!.applyBoundary(ends)]);
    expect(fired.filter(Boolean)).toHaveLength(1);
    const back = await plainA.waitFor((st) => sceneOf(st) === defaultScene);
    expect((back as WallState).at).toBe(ends);
    const rows = (await nodeA.request<ActivityDto[]>('GET', '/api/activity?kind=schedule&limit=50')).body.filter((r) => r.subject_name === 'Takeover ended');
    expect(rows).toHaveLength(1);
  });
});
