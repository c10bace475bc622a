/**
 * Pushes by feature: a feature module (tests/support/beacon-feature.ts) adds a change type and
 * its push to the admins' room as a module of its own — one line added to the list — and the
 * push reaches admins on both nodes of a cluster, with the version of the batch.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCommand } from '../../src/domain/command.ts';
import { adminHeaders, startTestApp, type TestApp } from '../support/app.ts';
import { withBeacon } from '../support/beacon-feature.ts';
import { openScreen, type TestScreen } from '../support/screens.ts';

let nodeA: TestApp;
let nodeB: TestApp;
const screens: TestScreen[] = [];

beforeAll(async () => {
  nodeA = await startTestApp({ hub: { cluster: true }, appOptions: { modules: withBeacon } });
  nodeB = await startTestApp({ hub: { cluster: true }, appOptions: { modules: withBeacon }, database: nodeA.db });
});
afterAll(async () => {
  screens.forEach((s) => s.close());
  await nodeB?.close();
  await nodeA?.close();
});

describe('a feature that declares its own change and push', () => {
  it('reaches the admins of every node, and no wall', async () => {
    const adminA = openScreen(nodeA.baseUrl, { kind: 'admin' }, adminHeaders);
    const adminB = openScreen(nodeB.baseUrl, { kind: 'admin' }, adminHeaders);
    const wall = openScreen(nodeB.baseUrl, { kind: 'wall' });
    screens.push(adminA, adminB, wall);
    await Promise.all(screens.map((s) => s.waitFor((state) => state !== null)));

    const seen: Record<string, { version: number; label: string }[]> = { a: [], b: [], wall: [] };
    adminA.client.socket.on('beacon:lit', (p) => seen.a!.push(p));
    adminB.client.socket.on('beacon:lit', (p) => seen.b!.push(p));
    wall.client.socket.on('beacon:lit', (p) => seen.wall!.push(p));

    await runCommand(nodeA.orm.em.fork(), { publisher: nodeA.hub!.publisher }, 'test', async (_tx, changes) => {
      changes.push({ type: 'beacon.lit', label: 'first light' });
    });
    await expect.poll(() => seen.a!.length + seen.b!.length).toBe(2);
    expect(seen.a![0]!.label).toBe('first light');
    expect(seen.b![0]).toEqual(seen.a![0]);
    expect(seen.a![0]!.version).toBeGreaterThan(0);
    await nodeB.hub!.idle();
    expect(seen.wall).toEqual([]);
  });
});
