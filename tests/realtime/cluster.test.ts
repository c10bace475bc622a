/**
 * Two hub nodes on one PostgreSQL (the Socket.IO Postgres adapter, as in production): a change
 * made through node A reaches screens connected to node B, and presence spans both nodes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KioskState, ScreenPresence, WallState } from '../../src/shared/events.ts';
import { seed } from '../../src/modules/seed/seed.ts';
import { createLogger } from '../../src/logger.ts';
import { pushesSent } from '../../src/metrics.ts';
import { adminHeaders, startTestApp, type TestApp } from '../support/app.ts';
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

  it('push the screen list to a console on B when a screen comes to A, and build none while no console is connected', async () => {
    // Both nodes count in this process's registry: no console anywhere, no list pushed by either.
    const pushed = async () => (await pushesSent.get()).values.find((v) => v.labels.event === 'screens:updated')?.value ?? 0;
    const before = await pushed();
    const unheard = openScreen(nodeA.baseUrl, { kind: 'wall', name: 'nobody hears this one' });
    screens.push(unheard);
    await unheard.waitFor((s) => !!s);
    await new Promise((r) => setTimeout(r, 500)); // ten debounce periods of the test nodes
    expect(await pushed()).toBe(before);

    const console1 = openScreen(nodeB.baseUrl, { kind: 'admin', name: 'console on B' }, adminHeaders);
    screens.push(console1);
    const lists: ScreenPresence[][] = [];
    console1.client.socket.on('screens:updated', (list) => lists.push(list));
    await console1.waitFor((s) => s?.kind === 'admin');
    // B's own push for its console (a change on B), holding A's screens too.
    await expect.poll(() => lists.at(-1)?.some((s) => s.name === 'nobody hears this one'), { timeout: 10_000 }).toBe(true);
    await new Promise((r) => setTimeout(r, 500)); // B told A of its console at once; time for the notice to cross

    const arrives = openScreen(nodeA.baseUrl, { kind: 'wall', name: 'arrives on A' });
    screens.push(arrives);
    await expect.poll(() => lists.at(-1)?.find((s) => s.name === 'arrives on A')?.node, { timeout: 10_000 }).toBe(lists.at(-1)?.find((s) => s.name === 'nobody hears this one')?.node);
    console1.close();
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
