/**
 * Issue 22: the load balancer we ship, tested as shipped. Debian's nginx runs
 * deploy/nginx/nature-wall.conf (only the node addresses and the port replaced) in front of two
 * real nodes (`node src/server.ts`) on one PostgreSQL, with the Redis adapter. 200 walls connect
 * through nginx from 200 source addresses, so its address hash puts them on both nodes; a reader
 * and a writer call the REST API through nginx all along. One node gets SIGTERM (a deploy):
 * every wall is back on the other node within 5 s, receives the next scene change, and not one
 * REST request failed.
 */
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { afterAll, describe, expect, it } from 'vitest';
import { startNode, startOwnedPostgres, type OwnedPostgres, type ServerNode } from '../faults/support.ts';
import { openScreen, type TestScreen } from '../support/screens.ts';
import { startNginx, type Nginx } from './nginx-harness.ts';
import { failed, rest, restLoop, type Loop } from './rest-traffic.ts';
import { openWalls, sawSceneAt, until, type ClusterWall } from './walls.ts';

const WALLS = 200;
const GRACE_SECONDS = 10;

let pg: OwnedPostgres | undefined;
const nodes: ServerNode[] = [];
let nginx: Nginx | undefined;
let walls: ClusterWall[] = [];
const loops: Loop[] = [];
const probes: TestScreen[] = [];

afterAll(async () => {
  walls.forEach((w) => w.client.close());
  probes.forEach((p) => p.close());
  await Promise.all(loops.map((l) => l.stop()));
  await nginx?.stop();
  await Promise.all(nodes.map((n) => n.stop()));
  await pg?.destroy();
});

/** The node id (presence's `node`) of a server process: a probe wall connected to it directly says. */
async function nodeIdOf(node: ServerNode): Promise<string> {
  const probe = openScreen(node.base, { kind: 'wall', name: 'probe' });
  probes.push(probe);
  await probe.waitFor((s) => s !== null, 30_000);
  let id: string | undefined;
  await until(async () => {
    const list = (await rest(node.base, 'GET', '/api/screens')).body as { id: string; node: string }[];
    id = list.find((s) => s.id === probe.client.socket.id)?.node;
    return id !== undefined;
  }, 30_000, 'the probe listed');
  probe.close();
  return id!;
}

/** Which node each wall is on now (its index in `walls` → node id), from the cluster-wide screen list. */
async function nodesOfWalls(base: string): Promise<string[]> {
  const list = (await rest(base, 'GET', '/api/screens')).body as { id: string; node: string }[];
  const byId = new Map(list.map((s) => [s.id, s.node]));
  return walls.map((wall) => byId.get(wall.client.socket.id ?? '') ?? 'unlisted');
}

describe('nginx (deploy/nginx/nature-wall.conf) in front of two nodes', () => {
  it('moves every wall to the other node when one is stopped, loses no change and fails no REST request', async () => {
    pg = await startOwnedPostgres();
    const env = {
      DATABASE_URL: pg.url,
      REDIS_URL: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379',
      NW_REDIS_STREAM: `nw-cluster-test-${randomBytes(4).toString('hex')}`, // parallel runs on one Redis do not hear each other
      TRUST_PROXY: 'true',
      SHUTDOWN_GRACE_SECONDS: String(GRACE_SECONDS),
      LOG_LEVEL: 'warn',
    };
    nodes.push(...(await Promise.all([startNode(env), startNode(env)])));
    nginx = await startNginx(nodes.map((n) => new URL(n.base).host));
    const base = nginx.base;
    const [victimId, survivorId] = await Promise.all(nodes.map(nodeIdOf));

    // A stream and a scene of it, shown on every wall.
    const streamIds: number[] = [];
    const sceneIds: number[] = [];
    for (const i of [0, 1]) {
      const stream = await rest(base, 'POST', '/api/streams', { name: `Cluster cam ${i}`, url: `https://example.org/cluster-${i}.m3u8`, category: 'ocean' });
      expect(stream.status, JSON.stringify(stream.body)).toBe(201);
      streamIds.push((stream.body as { id: number }).id);
      const scene = await rest(base, 'POST', '/api/scenes', { name: `Cluster scene ${i}`, selection_algorithm: 'manual', stream_ids: [streamIds[i]] });
      expect(scene.status, JSON.stringify(scene.body)).toBe(201);
      sceneIds.push((scene.body as { id: number }).id);
    }
    expect((await rest(base, 'PUT', '/api/config/default-scene', { scene_id: sceneIds[0] })).status).toBe(200);

    walls = await openWalls(base, WALLS);
    await until(() => walls.every((w) => w.sceneId === sceneIds[0]), 30_000, 'every wall shows the first scene');
    let placed: string[] = [];
    await until(async () => {
      placed = await nodesOfWalls(base);
      return placed.every((node) => node === victimId || node === survivorId);
    }, 30_000, 'every wall listed on one of the two nodes');
    const onVictim = placed.filter((node) => node === victimId).length;
    // The address hash spreads the walls: both nodes hold some, so the stop moves real screens.
    expect(onVictim).toBeGreaterThan(0);
    expect(onVictim).toBeLessThan(WALLS);

    // Readers and a writer through nginx, from source addresses on both nodes, all along.
    const reads = [0, 1, 2, 3].map((k) =>
      restLoop(base, 10, (n) => ({ method: 'GET', path: (n + k) % 2 === 0 ? '/api/scenes?active=true' : `/api/streams/${streamIds[0]}` }), k * 61),
    );
    const writes = [0, 1].map((k) =>
      restLoop(base, 20, (n) => ({
        method: 'POST',
        path: '/api/streams',
        body: { name: `Cluster write ${k}-${n}`, url: `https://example.org/cluster-write-${k}-${n}.m3u8`, category: 'nature' },
      }), k * 127),
    );
    loops.push(...reads, ...writes);
    await new Promise((r) => setTimeout(r, 1_000));

    const victim = nodes[0]!;
    const exited = new Promise<number | null>((resolve) => victim.child.once('exit', (code) => resolve(code)));
    const stoppedAt = performance.now();
    victim.child.kill('SIGTERM');

    // Every wall connected and registered again, all on the survivor (a generous bound only).
    await until(() => walls.every((w) => w.back), 60_000, 'every wall back');
    await until(async () => (await nodesOfWalls(base)).every((node) => node === survivorId), 30_000, `all ${WALLS} walls listed on the survivor`);
    const moved = walls.filter((w) => w.gaps.some((g) => g.from >= stoppedAt));
    const lastBackMs = Math.max(...moved.map((w) => w.gaps.at(-1)!.to)) - stoppedAt;
    const longestGapMs = Math.max(...moved.flatMap((w) => w.gaps.map((g) => g.to - g.from)));
    // The traffic goes on until the stopped node has exited, past the moment it stops listening.
    expect(await exited).toBe(0);
    await new Promise((r) => setTimeout(r, 1_000));

    // The next change reaches every wall, the moved ones through the survivor.
    const changedAt = performance.now();
    const change = await rest(base, 'PUT', '/api/config/default-scene', { scene_id: sceneIds[1] });
    expect(change.status).toBe(200);
    await until(() => walls.every((w) => sawSceneAt(w, sceneIds[1]!, changedAt) !== undefined), 30_000, 'every wall shows the next scene');

    await Promise.all(loops.map((l) => l.stop()));
    const answers = loops.flatMap((l) => l.answers);
    const duringDrain = answers.filter((a) => a.startedAt >= stoppedAt && a.startedAt <= stoppedAt + GRACE_SECONDS * 1000).length;
    // nginx's own account: requests it passed to a second node (`upstream_status` lists each try).
    const retried = (await nginx.accessLog()).split('\n').filter((line) => /\d{3}, /.test(line));
    console.info(
      `[cluster] ${onVictim}/${WALLS} walls on the stopped node; all back ${Math.round(lastBackMs)} ms after SIGTERM, ` +
        `longest without a connection ${Math.round(longestGapMs)} ms; ${answers.length} REST answers (${duringDrain} started ` +
        `between SIGTERM and the end of the grace period); nginx tried a second node ${retried.length} times`,
    );

    // Every wall of the stopped node moved, none of the other node's did.
    const movedOrNot = walls.map((w, i) => `${w.address} ${placed[i] === victimId ? 'on the stopped node' : 'on the other'}: ${moved.includes(w) ? 'moved' : 'stayed'}`);
    expect(movedOrNot.filter((line) => /stopped node: stayed|other: moved/.test(line))).toEqual([]);
    // nginx passed every handshake the draining node refused (503) on to the other node: no wall
    // saw a failed attempt, which would have cost it a reconnect delay.
    expect(walls.filter((w) => w.failedAttempts > 0).map((w) => `${w.address}: ${w.failedAttempts} failed attempts`)).toEqual([]);
    const failures = failed(answers);
    expect({ failed: failures.length, first: failures.slice(0, 10) }).toEqual({ failed: 0, first: [] });
    // Acknowledged writes are there.
    const written = writes.flatMap((l) => l.answers).map((a) => (a.body as { id: number }).id);
    expect(written.length).toBeGreaterThan(10);
    for (const id of written) expect((await rest(base, 'GET', `/api/streams/${id}`)).status).toBe(200);
    // Issue 22 asks "every screen back on the other within 5 s": the times are logged above and
    // measured by bench:cluster, not asserted (no timed assertions on noisy machines). What makes
    // them short is asserted: no wall saw a failed attempt (which would cost it a backoff delay).
  }, 240_000);
});
