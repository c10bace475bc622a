/**
 * The server decides what each screen shows: groups, a screen's own scene, a group joined by
 * address, the takeover and its release move real sockets at once — each moved screen gets one
 * state with the instant to show it at, screens the change does not concern get nothing.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { KioskState, ScreenPresence, WallState } from '../../src/shared/events.ts';
import type { ScreenGroupDto } from '../../src/shared/api/index.ts';
import { seed } from '../../src/modules/seed/seed.ts';
import { createLogger } from '../../src/logger.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { buildScene, buildStream } from '../support/factories.ts';
import { screenPool, type TestScreen } from '../support/screens.ts';

let app: TestApp;
let ocean: number;
let volcano: number;
let defaultScene: number;
const screens = screenPool();
const open = screens.open;

beforeAll(async () => {
  app = await startTestApp({ hub: true });
  await seed(app.orm.em.fork(), { demo: false, logger: createLogger('silent') });
  const em = app.orm.em.fork();
  const streams = await Promise.all([1, 2, 3].map((n) => buildStream(em, { name: `Cam ${n}` })));
  ocean = (await buildScene(em, { name: 'Ocean', streams: [streams[0]!, streams[1]!] })).id;
  volcano = (await buildScene(em, { name: 'Volcano', streams: [streams[2]!] })).id;
  defaultScene = (await app.request<{ scene_id: number }>('GET', '/api/config/default-scene')).body.scene_id;
});
afterEach(screens.closeAll);
afterAll(async () => app?.close());

const sceneOf = (s: TestScreen) => (s.state as WallState | KioskState | null)?.scene?.id ?? null;
const stateCount = (s: TestScreen) => s.messages.filter((m) => m.type === 'state' || m.type === 'kiosk').length;
const presence = async (device: string) => (await app.request<ScreenPresence[]>('GET', '/api/screens')).body.find((s) => s.device === device);

describe('screens move when operators steer them', () => {
  it("a wall put in a group shows the group's scene at once, with an instant; another screen does not move", async () => {
    const lobby = await app.request<ScreenGroupDto>('POST', '/api/screen-groups', { name: 'Lobby', scene_id: ocean });
    const wall = open(app.baseUrl, { kind: 'wall', device: 'lobby-wall-0001' });
    const other = open(app.baseUrl, { kind: 'wall', device: 'hall-wall-00001' });
    await wall.waitFor((s) => sceneOf({ state: s } as TestScreen) === defaultScene);
    await other.waitFor((s) => sceneOf({ state: s } as TestScreen) === defaultScene);
    const before = stateCount(other);

    await app.request('PUT', '/api/screen-groups/assignments', { device: 'lobby-wall-0001', group_id: lobby.body.id });
    const moved = await wall.waitFor((s) => sceneOf({ state: s } as TestScreen) === ocean);
    expect((moved as WallState).at).toBeGreaterThan(0);
    await app.hub!.idle();
    expect(stateCount(other)).toBe(before);
    expect(await presence('lobby-wall-0001')).toMatchObject({ group_id: lobby.body.id, rule: 'group', scene_id: ocean });
    expect(await presence('hall-wall-00001')).toMatchObject({ group_id: null, rule: 'default', scene_id: defaultScene });
  });

  it("a screen's own scene wins over its group's; clearing it returns it to the group", async () => {
    const wall = open(app.baseUrl, { kind: 'wall', device: 'lobby-wall-0001' });
    await wall.waitFor((s) => sceneOf({ state: s } as TestScreen) === ocean);
    await app.request('PUT', '/api/screen-groups/assignments', { device: 'lobby-wall-0001', scene_id: volcano });
    await wall.waitFor((s) => sceneOf({ state: s } as TestScreen) === volcano);
    expect((await presence('lobby-wall-0001'))?.rule).toBe('assigned');
    await app.request('PUT', '/api/screen-groups/assignments', { device: 'lobby-wall-0001', scene_id: null });
    await wall.waitFor((s) => sceneOf({ state: s } as TestScreen) === ocean);
  });

  it('a kiosk opened with ?group= joins the group (one Activity row) and shows its position of the group scene', async () => {
    await app.request('POST', '/api/screen-groups', { name: 'Tablets', scene_id: ocean });
    const kiosk = open(app.baseUrl, { kind: 'kiosk', position: 2, device: 'tablet-00000001', group: 'tablets' });
    const state = (await kiosk.waitFor((s) => sceneOf({ state: s } as TestScreen) === ocean)) as KioskState;
    expect(state.stream?.name).toBe('Cam 2');
    const groups = (await app.request<ScreenGroupDto[]>('GET', '/api/screen-groups')).body;
    expect(groups.find((g) => g.slug === 'tablets')?.devices).toEqual(['tablet-00000001']);
    const joined = (await app.request<{ action: string; actor: string }[]>('GET', '/api/activity?kind=screen')).body.filter((a) => a.action === 'screen.joined');
    expect(joined).toHaveLength(1);
    // Registering again with the same address joins nothing new.
    const again = open(app.baseUrl, { kind: 'kiosk', position: 1, device: 'tablet-00000001', group: 'tablets' });
    await again.waitFor((s) => sceneOf({ state: s } as TestScreen) === ocean);
    expect((await app.request<{ action: string }[]>('GET', '/api/activity?kind=screen')).body.filter((a) => a.action === 'screen.joined')).toHaveLength(1);
  });

  it('a takeover moves every screen, even one on an explicit address; release returns each to its own rule', async () => {
    const grouped = open(app.baseUrl, { kind: 'wall', device: 'lobby-wall-0001' });
    const addressed = open(app.baseUrl, { kind: 'wall', device: 'gallery-wall-01', sceneSlug: 'ocean' });
    const plain = open(app.baseUrl, { kind: 'kiosk', position: 1, device: 'hall-kiosk-0001' });
    await grouped.waitFor((s) => sceneOf({ state: s } as TestScreen) === ocean);
    await addressed.waitFor((s) => sceneOf({ state: s } as TestScreen) === ocean);
    await plain.waitFor((s) => sceneOf({ state: s } as TestScreen) === defaultScene);

    await app.request('PUT', '/api/takeover', { scene_id: volcano, banner: 'Eruption live' });
    for (const s of [grouped, addressed, plain]) await s.waitFor((st) => sceneOf({ state: st } as TestScreen) === volcano);
    expect((await presence('gallery-wall-01'))?.rule).toBe('takeover');
    expect([grouped, addressed, plain].map((s) => (s.state as WallState | KioskState).banner)).toEqual(['Eruption live', 'Eruption live', 'Eruption live']);

    await app.request('DELETE', '/api/takeover');
    await grouped.waitFor((s) => sceneOf({ state: s } as TestScreen) === ocean);
    await addressed.waitFor((s) => sceneOf({ state: s } as TestScreen) === ocean);
    await plain.waitFor((s) => sceneOf({ state: s } as TestScreen) === defaultScene);
    expect((await presence('gallery-wall-01'))?.rule).toBe('address');
    expect((grouped.state as WallState).banner).toBeUndefined();
  });

  it('a takeover for one group leaves the other screens alone', async () => {
    const lobbyId = (await app.request<ScreenGroupDto[]>('GET', '/api/screen-groups')).body.find((g) => g.slug === 'lobby')!.id;
    const grouped = open(app.baseUrl, { kind: 'wall', device: 'lobby-wall-0001' });
    const plain = open(app.baseUrl, { kind: 'wall', device: 'hall-wall-00001' });
    await grouped.waitFor((s) => sceneOf({ state: s } as TestScreen) === ocean);
    await plain.waitFor((s) => sceneOf({ state: s } as TestScreen) === defaultScene);
    const before = stateCount(plain);
    await app.request('PUT', '/api/takeover', { scene_id: volcano, group_ids: [lobbyId] });
    await grouped.waitFor((s) => sceneOf({ state: s } as TestScreen) === volcano);
    await app.hub!.idle();
    expect(stateCount(plain)).toBe(before);
    expect(sceneOf(plain)).toBe(defaultScene);
    await app.request('DELETE', '/api/takeover');
    await grouped.waitFor((s) => sceneOf({ state: s } as TestScreen) === ocean);
  });

  it("a screen page's HTML carries the state of that very screen (its device cookie, its group)", async () => {
    // The test app serves no web build, so the hub's answer for a look is checked directly.
    const look = await app.hub!.stateFor({ kind: 'wall', device: 'lobby-wall-0001' });
    expect((look as WallState).scene?.id).toBe(ocean);
    const byAddress = await app.hub!.stateFor({ kind: 'wall', group: 'tablets' });
    expect((byAddress as WallState).scene?.id).toBe(ocean);
  });
});
