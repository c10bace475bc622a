/**
 * The REDIS_URL path: two nodes on the Redis Streams adapter, and connection-state recovery
 * (which that adapter supports) re-checking admin access. Needs a Redis: TEST_REDIS_URL
 * (.ci/run provides one on 127.0.0.1).
 */
import { randomBytes } from 'node:crypto';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WallState } from '../../src/shared/events.ts';
import { AdminSession } from '../../src/modules/auth/auth.entity.ts';
import { seed } from '../../src/modules/seed/seed.ts';
import { createLogger } from '../../src/logger.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { openScreen, type TestScreen } from '../support/screens.ts';
import { login, withAdmin } from '../auth/support.ts';

const redisUrl = process.env.TEST_REDIS_URL;

describe.skipIf(!redisUrl)('Redis Streams adapter (TEST_REDIS_URL)', () => {
  let nodeA: TestApp;
  let nodeB: TestApp;
  const screens: TestScreen[] = [];
  // A stream name of our own, so parallel runs on one Redis do not hear each other.
  const stream = `nw-test-${randomBytes(4).toString('hex')}`;

  beforeAll(async () => {
    process.env.NW_REDIS_STREAM = stream;
    nodeA = await startTestApp({ hub: { redisUrl: redisUrl! } });
    await seed(nodeA.orm.em.fork(), { demo: true, logger: createLogger('silent') });
    await withAdmin(nodeA);
    nodeB = await startTestApp({ hub: { redisUrl: redisUrl! }, database: nodeA.db });
  });
  afterAll(async () => {
    screens.forEach((s) => s.close());
    await nodeB?.close();
    await nodeA?.close();
  });

  it('delivers a change made on node A to a wall on node B', async () => {
    const wall = openScreen(nodeB.baseUrl, { kind: 'wall' });
    screens.push(wall);
    const { scene_id: original } = (await nodeA.request<{ scene_id: number }>('GET', '/api/config/default-scene')).body;
    await wall.waitFor((s) => (s as WallState | null)?.scene?.id === original);
    const other = (await nodeA.request<{ id: number }[]>('GET', '/api/scenes?active=true')).body.find((s) => s.id !== original)!.id;
    await nodeA.request('PUT', '/api/config/default-scene', { scene_id: other });
    await wall.waitFor((s) => (s as WallState).scene?.id === other);
  });

  it('keeps two deployments on one Redis apart: a node of another stream hears none of their notices', async () => {
    process.env.NW_REDIS_STREAM = `nw-test-${randomBytes(4).toString('hex')}`;
    const elsewhere = await startTestApp({ hub: { redisUrl: redisUrl! } });
    process.env.NW_REDIS_STREAM = stream;
    try {
      const heard: unknown[] = [];
      elsewhere.hub!.io.on('nw:changes', (notice) => heard.push(notice));
      // Listening for certain before anything is published: its adapter's own channel is subscribed
      // (with its public one, in one SUBSCRIBE), or hearing nothing would prove nothing.
      const uid = (elsewhere.hub!.io.of('/').adapter as unknown as { uid: string }).uid;
      const probe = createClient({ url: redisUrl! });
      await probe.connect();
      try {
        await expect.poll(async () => (await probe.sendCommand<string[]>(['PUBSUB', 'CHANNELS', `*#${uid}#`])).length).toBe(1);
      } finally {
        await probe.quit();
      }
      const wall = openScreen(nodeB.baseUrl, { kind: 'wall' });
      screens.push(wall);
      const { scene_id: original } = (await nodeA.request<{ scene_id: number }>('GET', '/api/config/default-scene')).body;
      const other = (await nodeA.request<{ id: number }[]>('GET', '/api/scenes?active=true')).body.find((s) => s.id !== original)!.id;
      for (const sceneId of [other, original]) {
        await nodeA.request('PUT', '/api/config/default-scene', { scene_id: sceneId });
        await wall.waitFor((s) => (s as WallState | null)?.scene?.id === sceneId);
      }
      // Redis hands one PUBLISH to every subscriber at once: B has had both, so would the other deployment.
      await nodeB.hub!.idle();
      await elsewhere.hub!.idle();
      expect(heard).toEqual([]);
    } finally {
      await elsewhere.close();
    }
  });

  it('re-checks admin access when a connection is recovered', async () => {
    const { cookie } = await login(nodeA);
    const admin = openScreen(nodeA.baseUrl, { kind: 'admin' }, { cookie });
    screens.push(admin);
    // Recovery resumes from the last broadcast received: wait for the presence push to admins.
    const pushed = new Promise((resolve) => admin.client.socket.once('screens:updated', resolve));
    await admin.waitFor((s) => s?.kind === 'admin');
    await pushed;
    const dropAndRecover = () => {
      const recovered = new Promise<boolean>((resolve) => admin.client.socket.once('connect', () => resolve(admin.client.socket.recovered)));
      admin.client.socket.io.engine.close();
      return recovered;
    };
    // With a valid session, a recovered admin socket stays.
    expect(await dropAndRecover()).toBe(true);
    await nodeA.hub!.idle(); // the recovered connection's access has been checked again
    // A round trip after the check: a disconnect it sent would have arrived before this answer.
    await admin.client.socket.timeout(5000).emitWithAck('clock:sync', {});
    expect(admin.client.socket.connected).toBe(true);
    // The session ends behind the socket's back; the next recovery is refused.
    await nodeA.orm.em.fork().nativeDelete(AdminSession, {});
    expect(await dropAndRecover()).toBe(true);
    await expect.poll(() => admin.client.socket.connected, { timeout: 5000 }).toBe(false);
  });
});
