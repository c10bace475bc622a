/**
 * Two hub nodes on one PostgreSQL (the Socket.IO Postgres adapter, as in production): a change
 * made through node A reaches screens connected to node B, and presence spans both nodes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KioskState, ScreenPresence, WallState } from '../../src/shared/events.ts';
import { seed } from '../../src/modules/seed/seed.ts';
import { createLogger } from '../../src/logger.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { openScreen, type TestScreen } from '../support/screens.ts';

let nodeA: TestApp;
let nodeB: TestApp;
const screens: TestScreen[] = [];

beforeAll(async () => {
  nodeA = await startTestApp({ hub: { cluster: true } });
  await seed(nodeA.orm.em.fork(), { demo: true, logger: createLogger('silent') });
  nodeB = await startTestApp({ hub: { cluster: true }, database: nodeA.db });
});
afterAll(async () => {
  screens.forEach((s) => s.close());
  await nodeB?.close();
  await nodeA?.close();
});

describe('two nodes sharing one PostgreSQL', () => {
  it('deliver a change made on A to walls and kiosks connected to B', async () => {
    const wallOnB = openScreen(nodeB.baseUrl, { kind: 'wall', name: 'wall on B' });
    const kioskOnB = openScreen(nodeB.baseUrl, { kind: 'kiosk', name: 'kiosk on B', position: 1 });
    screens.push(wallOnB, kioskOnB);
    const { scene_id: original } = (await nodeA.request<{ scene_id: number }>('GET', '/api/config/default-scene')).body;
    await wallOnB.waitFor((s) => (s as WallState | null)?.scene?.id === original);
    await kioskOnB.waitFor((s) => (s as KioskState | null)?.scene?.id === original);

    // Warm B's cache, so B must learn of A's change to stop serving the old default.
    expect((await nodeB.request<{ scene_id: number }>('GET', '/api/config/default-scene')).body.scene_id).toBe(original);

    const target = (await nodeA.request<{ id: number; name: string; stream_ids: number[] }[]>('GET', '/api/scenes')).body.find(
      (s) => s.name === 'Wildlife Watch',
    )!;
    await nodeA.request('PUT', '/api/config/default-scene', { scene_id: target.id });

    const state = (await wallOnB.waitFor((s) => (s as WallState).scene?.id === target.id)) as WallState;
    expect(state.streams.map((s) => s.id)).toEqual(target.stream_ids);
    await kioskOnB.waitFor((s) => (s as KioskState).stream?.id === target.stream_ids[0]);
    // B's REST answers follow too (its scene cache was invalidated by A's notice).
    await expect.poll(async () => (await nodeB.request<{ scene_id: number }>('GET', '/api/config/default-scene')).body.scene_id).toBe(target.id);

    const streamId = target.stream_ids[0]!;
    await nodeA.request('PUT', '/api/streams', { id: streamId, name: 'Edited on A' });
    await kioskOnB.waitFor((s) => (s as KioskState).stream?.name === 'Edited on A');
    await nodeA.request('PUT', '/api/config/default-scene', { scene_id: original });
    await wallOnB.waitFor((s) => (s as WallState).scene?.id === original);
  });

  it('list screens of both nodes in GET /api/screens on either node', async () => {
    const onA = openScreen(nodeA.baseUrl, { kind: 'wall', name: 'presence on A' });
    const onB = openScreen(nodeB.baseUrl, { kind: 'kiosk', name: 'presence on B', position: 4 });
    screens.push(onA, onB);
    await onA.waitFor((s) => !!s);
    await onB.waitFor((s) => !!s);
    for (const node of [nodeA, nodeB]) {
      const list = (await node.request<ScreenPresence[]>('GET', '/api/screens')).body;
      const names = list.map((s) => s.name);
      expect(names).toContain('presence on A');
      expect(names).toContain('presence on B');
      const [a, b] = [list.find((s) => s.name === 'presence on A')!, list.find((s) => s.name === 'presence on B')!];
      expect(a.node).not.toBe(b.node);
    }
  });
});
