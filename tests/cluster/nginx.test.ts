/**
 * Issues 22 and 43: the load balancer we ship, tested as shipped. Debian's nginx runs
 * deploy/nginx/nature-wall.conf (only the node addresses and the port replaced) in front of three
 * real nodes (`node src/server.ts`, NODE_NAME app1–3) on one PostgreSQL, with the Redis adapter.
 *
 * - New connections go to the node with the fewest, from many source addresses and from one (a
 *   venue behind one NAT address).
 * - A long-polling session (no WebSocket) stays on the node that holds it: its node's cookie.
 * - A rolling restart under 300 walls, with a writer switching the default scene all along and
 *   REST traffic through nginx: each node in turn gets SIGTERM, and every wall it held moves to
 *   another node before it exits (a new connection first: none is ever without one), no wall
 *   misses a change, no REST request fails; a new connection that reaches the draining node is
 *   answered 503 and nginx passes it on. After each restart the shares even out (the nodes
 *   holding more ask some of their walls to move) until every node is within ±15 % of the mean.
 *
 * Nothing here is timed against the machine's speed: each step waits (with a generous bound) for
 * what must happen, and what is asserted is what happened — who moved, when relative to the
 * node's exit, what each wall received.
 */
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { io as ioClient, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectScreen, type ScreenClient } from '../../src/shared/screen-client.ts';
import { startNode, startOwnedPostgres, type OwnedPostgres, type ServerNode } from '../faults/support.ts';
import { nodeName, startNginx, type Nginx } from './nginx-harness.ts';
import { countsOn, nodeIdOf, nodesOfWalls, spreadFromMean } from './nodes.ts';
import { failed, rest, restLoop, type Loop, type RestAnswer } from './rest-traffic.ts';
import { missedChanges, newestVersion, openWalls, sawSceneAt, until, type ClusterWall } from './walls.ts';

const GRACE_SECONDS = 10;
/** The band issue 43 asks for 60 s after a roll. */
const BAND = 0.15;

let pg: OwnedPostgres | undefined;
const nodes: ServerNode[] = [];
let nodeIds: string[] = [];
let nginx: Nginx | undefined;
let walls: ClusterWall[] = [];
const loops: Loop[] = [];
const extra: ScreenClient[] = [];
const stubborn: Socket[] = [];
let env: NodeJS.ProcessEnv = {};
const streamIds: number[] = [];
const sceneIds: number[] = [];

afterAll(async () => {
  walls.forEach((w) => w.client.close());
  extra.forEach((c) => c.close());
  stubborn.forEach((s) => s.close());
  await Promise.all(loops.map((l) => l.stop()));
  await nginx?.stop();
  await Promise.all(nodes.map((n) => n.stop()));
  await pg?.destroy();
});

const envOf = (i: number) => ({ ...env, NODE_NAME: nodeName(i) });

beforeAll(async () => {
  pg = await startOwnedPostgres();
  env = {
    DATABASE_URL: pg.url,
    REDIS_URL: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379',
    NW_REDIS_STREAM: `nw-cluster-test-${randomBytes(4).toString('hex')}`, // parallel runs on one Redis do not hear each other
    TRUST_PROXY: 'true',
    SHUTDOWN_GRACE_SECONDS: String(GRACE_SECONDS),
    // Shares even out within seconds here (production waits 15 s over the band first).
    SCREEN_REBALANCE_SECONDS: '2',
    LOG_LEVEL: 'info',
  };
  nodes.push(...(await Promise.all([0, 1, 2].map((i) => startNode(envOf(i))))));
  nodeIds = await Promise.all(nodes.map((n) => nodeIdOf(n.base)));
  nginx = await startNginx(nodes.map((n) => new URL(n.base).host));
  const base = nginx.base;
  for (const i of [0, 1]) {
    const stream = await rest(base, 'POST', '/api/streams', { name: `Cluster cam ${i}`, url: `https://example.org/cluster-${i}.m3u8`, category: 'ocean' });
    expect(stream.status, JSON.stringify(stream.body)).toBe(201);
    streamIds.push((stream.body as { id: number }).id);
    const scene = await rest(base, 'POST', '/api/scenes', { name: `Cluster scene ${i}`, selection_algorithm: 'manual', stream_ids: [streamIds[i]] });
    expect(scene.status, JSON.stringify(scene.body)).toBe(201);
    sceneIds.push((scene.body as { id: number }).id);
  }
  expect((await rest(base, 'PUT', '/api/config/default-scene', { scene_id: sceneIds[0] })).status).toBe(200);
}, 120_000);

describe('nginx (deploy/nginx/nature-wall.conf) in front of three nodes', () => {
  it('sends new connections to the node with the fewest, from one source address as from many', async () => {
    const base = nginx!.base;
    const fromOne = await openWalls(base, 150, { from: () => '127.0.0.2' });
    const fromMany = await openWalls(base, 150);
    walls = [...fromOne, ...fromMany];
    await until(() => walls.every((w) => w.sceneId === sceneIds[0]), 30_000, 'every wall shows the first scene');
    const placed = await nodesOfWalls(base, walls);
    const one = countsOn(placed.slice(0, 150), nodeIds);
    const many = countsOn(placed.slice(150), nodeIds);
    console.info(`[cluster] walls per node from one address ${one.join('/')}, from many ${many.join('/')}`);
    expect(spreadFromMean(one), `from one address: ${one.join('/')}`).toBeLessThanOrEqual(BAND);
    expect(spreadFromMean(many), `from many: ${many.join('/')}`).toBeLessThanOrEqual(BAND);
  }, 120_000);

  it('keeps a long-polling session on the node that holds it (its cookie), from one address', async () => {
    const base = nginx!.base;
    const pollers: { client: ScreenClient; errors: string[]; statuses: string[]; sceneId: number | null }[] = [];
    for (let i = 0; i < 12; i++) {
      const p = { client: undefined as unknown as ScreenClient, errors: [] as string[], statuses: [] as string[], sceneId: null as number | null };
      p.client = connectScreen({
        url: base,
        registration: { kind: 'wall', name: `polling wall ${i}` },
        // No WebSocket (a proxy that refuses it); the engine keeps its cookies (Node has no browser jar).
        socketOptions: { transports: ['polling'], forceNew: true, withCredentials: true },
        onStatus: (s) => p.statuses.push(s),
        onConnectError: (m) => p.errors.push(m),
        onMessage: (m) => {
          if (m.type === 'state' && m.state.kind === 'wall') p.sceneId = m.state.scene?.id ?? null;
          if (m.type === 'scene') p.sceneId = m.payload.scene.id;
        },
      });
      pollers.push(p);
      extra.push(p.client);
    }
    await until(() => pollers.every((p) => p.sceneId !== null), 30_000, 'every polling wall registered');
    // Two switches, each reaching every polling wall through its long-poll.
    for (const sceneId of [sceneIds[1]!, sceneIds[0]!]) {
      expect((await rest(base, 'PUT', '/api/config/default-scene', { scene_id: sceneId })).status).toBe(200);
      await until(() => pollers.every((p) => p.sceneId === sceneId), 30_000, 'every polling wall switched');
    }
    await until(() => walls.every((w) => w.sceneId === sceneIds[0]), 30_000, 'every wall back on the first scene');
    const placed = await nodesOfWalls(base, pollers);
    expect(new Set(placed).size, `polling walls on ${placed.join(', ')}`).toBeGreaterThan(1);
    // Never let go, never refused: every request of a session reached the node that holds it.
    expect(pollers.map((p) => `${p.statuses.join('>')} ${p.errors.join(',')}`.trim())).toEqual(pollers.map(() => 'connecting>connected'));
    const polls = (await nginx!.accessLog()).split('\n').filter((line) => line.includes('transport=polling'));
    const bySession = new Map<string, Set<string>>();
    for (const line of polls) {
      const sid = /[?&]sid=([^& ]+)/.exec(line)?.[1];
      const upstream = line.split(' ').at(-2)!;
      if (sid) bySession.set(sid, (bySession.get(sid) ?? new Set()).add(upstream));
    }
    expect(bySession.size).toBeGreaterThanOrEqual(12);
    expect([...bySession].filter(([, upstreams]) => upstreams.size > 1)).toEqual([]);
    expect(polls.filter((line) => !/" 200 /.test(line))).toEqual([]);
    extra.splice(0).forEach((c) => c.close());
  }, 120_000);

  it('rolls: each node in turn drains — its walls move before it exits, miss no change, no request fails — and the shares even out after each', async () => {
    const base = nginx!.base;
    // A switch every 700 ms, and readers and writers through nginx, all along.
    let writing = true;
    const switches: RestAnswer[] = [];
    const writer = (async () => {
      for (let n = 0; writing; n++) {
        switches.push(await rest(base, 'PUT', '/api/config/default-scene', { scene_id: sceneIds[n % 2] }, `127.0.0.${2 + (n % 253)}`));
        await new Promise((r) => setTimeout(r, 700));
      }
    })();
    // Reads start after the first restart: a draining node hands reads back (504), which takes it
    // out of nginx's rotation at once — during the first drain only sockets reach it, so the
    // 503 path below is taken.
    const reads: Loop[] = [];
    const startReads = () =>
      reads.push(
        ...[0, 1, 2].map((k) =>
          restLoop(base, 20, (n) => ({ method: 'GET', path: (n + k) % 2 === 0 ? '/api/scenes?active=true' : `/api/streams/${streamIds[0]}` }), k * 61),
        ),
      );
    const writes = [0, 1].map((k) =>
      restLoop(base, 40, (n) => ({
        method: 'POST',
        path: '/api/streams',
        body: { name: `Cluster write ${k}-${n}`, url: `https://example.org/cluster-write-${k}-${n}.m3u8`, category: 'nature' },
      }), k * 127),
    );
    loops.push(...writes);
    const versionAtStart = newestVersion(walls);
    const stops: string[] = [];
    const rollStart = performance.now();

    for (let i = 0; i < nodes.length; i++) {
      const victim = nodes[i]!;
      const placed = await nodesOfWalls(base, walls);
      const held = walls.filter((_, k) => placed[k] === nodeIds[i]);
      expect(held.length, `walls on node ${i + 1}`).toBeGreaterThan(0);
      const exited = new Promise<number | null>((resolve) => victim.child.once('exit', (code) => resolve(code)));
      let exitedAt = Infinity;
      void exited.then(() => void (exitedAt = performance.now()));
      // On the first restart only: a socket that ignores the notice keeps the node draining (and
      // answering 503) until the end of its window, holding none of nginx's connections — so
      // nginx's least-connections pick sends a new wall there first, and must pass it on.
      const holdOpen = i === 0 ? ioClient(victim.base, { transports: ['websocket'], forceNew: true, reconnection: false }) : undefined;
      if (holdOpen) {
        stubborn.push(holdOpen);
        await until(() => holdOpen.connected, 10_000, 'the stubborn socket connected');
      }
      const stoppedAt = performance.now();
      victim.child.kill('SIGTERM');

      if (holdOpen) {
        // Most walls it held have moved (its count in nginx's eyes is now the lowest) while the
        // stubborn socket keeps it draining: new walls are sent there first, and passed on.
        await until(() => held.filter((w) => w.moves.some((at) => at >= stoppedAt)).length >= held.length * 0.8, 30_000, `node ${i + 1}'s walls moving`, 5);
        const late = await openWalls(base, 6, { from: (k) => `127.0.0.${200 + k}` });
        walls.push(...late);
        expect(late.map((w) => w.failedAttempts)).toEqual(late.map(() => 0));
      }
      expect(await exited).toBe(0);
      stops.push(`node ${i + 1}: SIGTERM ${Math.round(stoppedAt)}, exit ${Math.round(exitedAt)}`);
      if (i === 0) {
        startReads();
        loops.push(...reads);
      }

      // Every wall it held moved, each before the node exited, none was ever without a connection.
      const report = held.map((w) => {
        const move = w.moves.find((at) => at >= stoppedAt);
        const gap = w.gaps.find((g) => g.from >= stoppedAt);
        return `${w.address}: ${move === undefined ? 'did not move' : move <= exitedAt ? 'moved before the exit' : 'moved after the exit'}${gap ? ', had a gap' : ''}`;
      });
      expect(report.filter((line) => !line.endsWith('moved before the exit'))).toEqual([]);
      console.info(`[cluster] node ${i + 1}: ${held.length} walls moved before it exited, ${Math.round(exitedAt - stoppedAt)} ms after SIGTERM`);

      nodes[i] = await startNode(envOf(i), { port: Number(new URL(victim.base).port) });
      nodeIds[i] = await nodeIdOf(nodes[i]!.base);
      // The shares even out: the nodes holding more ask some of their walls to move (a generous bound only).
      let counts: number[] = [];
      await until(async () => {
        counts = countsOn(await nodesOfWalls(base, walls), nodeIds);
        return counts.reduce((a, b) => a + b, 0) === walls.length && spreadFromMean(counts) <= BAND;
      }, 120_000, `node ${i + 1} back and the shares within ±${BAND * 100} %`, 500).catch((err: unknown) => {
        const asked = nodes.map((n, k) => `node ${k + 1}: ${n.output().split('\n').filter((l) => l.includes('its share')).slice(-3).join(' ')}`);
        throw new Error(`${String(err)}; walls per node ${counts.join('/')}\n${asked.join('\n')}`);
      });
      console.info(`[cluster] after node ${i + 1}'s restart: walls per node ${counts.join('/')}`);
    }

    writing = false;
    await writer;
    await Promise.all(loops.map((l) => l.stop()));
    // No wall was ever without a connection, and every change reached every wall (pushed, or held by a state it registered with).
    expect(walls.filter((w) => w.gaps.some((g) => g.from >= rollStart)).map((w) => w.address)).toEqual([]);
    const missedBy = missedChanges(walls, versionAtStart);
    const missed = [...missedBy].map(([w, versions]) => `${w.address} missed ${versions.join(', ')}`);
    expect(missed).toEqual([]);
    expect(switches.filter((a) => a.status !== 200).map((a) => `${a.status} ${JSON.stringify(a.body)}`)).toEqual([]);
    // And the last one is what every wall shows.
    const last = sceneIds[(switches.length - 1) % 2]!;
    await until(() => walls.every((w) => w.sceneId === last), 30_000, 'every wall shows the last switch');
    const changedAt = performance.now();
    const next = sceneIds.find((id) => id !== last)!;
    expect((await rest(base, 'PUT', '/api/config/default-scene', { scene_id: next })).status).toBe(200);
    await until(() => walls.every((w) => sawSceneAt(w, next, changedAt) !== undefined), 30_000, 'every wall shows the next scene');

    // No REST request failed, acknowledged writes are there.
    const answers = loops.flatMap((l) => l.answers);
    const failures = failed(answers);
    const failedAt = answers.filter((a) => a.status === 0 || a.status >= 500).map((a) => `${a.method} ${a.path} ${a.status} at ${Math.round(a.startedAt)}–${Math.round(a.at)}`);
    expect({ failed: failures.length, first: failures.slice(0, 10) }, `${failedAt.join('; ')} (${stops.join('; ')})`).toEqual({ failed: 0, first: [] });
    const written = writes.flatMap((l) => l.answers).map((a) => (a.body as { id: number }).id);
    expect(written.length).toBeGreaterThan(10);
    for (const id of written) expect((await rest(base, 'GET', `/api/streams/${id}`)).status).toBe(200);
    // nginx passed at least one new connection the draining node refused on to another node.
    const passedOn = (await nginx!.accessLog()).split('\n').filter((line) => line.includes('/socket.io/') && /\b503, (\d{3}, )*101$/.test(line));
    expect(passedOn.length).toBeGreaterThan(0);
    // And reads a draining node handed back (504) were answered by another node.
    const readsPassedOn = (await nginx!.accessLog()).split('\n').filter((line) => line.includes('"GET /api/') && /\b504, (\d{3}, )*200$/.test(line));
    expect(readsPassedOn.length, (await nginx!.accessLog()).split('\n').filter((l) => l.includes('504') || l.includes('"GET /api/')).slice(-30).join('\n')).toBeGreaterThan(0);
  }, 600_000);
});
