/**
 * `npm run bench:cluster -- --screens 3000 --adapter both`: the cluster, measured from outside.
 *
 * Per adapter (Redis Streams, then Postgres): a PostgreSQL of its own, three nodes
 * (`src/server.ts`, NODE_NAME app1–3, TRUST_PROXY, SHUTDOWN_GRACE_SECONDS=20 as in
 * deploy/compose.yaml) and Debian's nginx running deploy/nginx/nature-wall.conf in front
 * (tests/cluster/nginx-harness.ts). N walls (the product's screen client, WebSocket) connect
 * through nginx from loopback addresses 127.0.0.2–254 (`--from one`: all from 127.0.0.2, a venue
 * behind one NAT address); a writer switches the default scene and adds a stream every second,
 * two readers read, all through nginx. Measured: fan-out of the default-scene switch (PUT start
 * → each wall's receipt) through the cluster, and for N walls on one node, without nginx and behind
 * the same nginx (the balancer's hop apart from the cluster's cost); then a
 * rolling restart of the three nodes (SIGTERM, wait for the exit, start again, wait /readyz, wait
 * nginx's fail_timeout of 10 s, next). Per restart: the walls the node held, how many moved
 * before it exited (make-before-break), the longest any wall was without a connection, p99 of
 * SIGTERM → registered elsewhere, changes any wall missed (tests/cluster/walls.ts
 * missedChanges), failed attempts; then each node's share 60 s after the roll, REST answers
 * during the roll by status, acknowledged writes lost, and how many walls the last switch
 * reached. The last line is one JSON object.
 */
import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { performance } from 'node:perf_hooks';
import { FAULT_TOKEN, startOwnedPostgres } from '../tests/faults/support.ts';
import { failed, rest, restLoop, type RestAnswer } from '../tests/cluster/rest-traffic.ts';
import { countsOn, nodeIdOf, nodesOfWalls, spreadFromMean } from '../tests/cluster/nodes.ts';
import { startNginx, nodeName } from '../tests/cluster/nginx-harness.ts';
import { missedChanges, newestVersion, openWalls, sawSceneAt, until, type ClusterWall } from '../tests/cluster/walls.ts';
import { startServerProcess, type ServerProcess } from './server-process.ts';
import { highest, percentile } from './stats.ts';
import { stallsWatched, watchStalls } from './stalls.ts';

watchStalls('bench');

const { values } = parseArgs({
  options: {
    screens: { type: 'string', default: '3000' },
    changes: { type: 'string', default: '30' },
    adapter: { type: 'string', default: 'both' },
    from: { type: 'string', default: 'many' },
    grace: { type: 'string', default: '20' },
    // The three fan-out phases only (no rolling restart, no shares after it): minutes, for working on pushes.
    'fanout-only': { type: 'boolean', default: false },
  },
  strict: true,
});
const SCREENS = Number(values.screens);
const CHANGES = Number(values.changes);
const ADAPTERS = values.adapter === 'both' ? (['redis', 'postgres'] as const) : ([values.adapter] as ('redis' | 'postgres')[]);
if (!Number.isInteger(SCREENS) || SCREENS < 1 || !Number.isInteger(CHANGES) || CHANGES < 1) throw new Error('--screens and --changes take whole numbers');
if (!ADAPTERS.every((a) => a === 'redis' || a === 'postgres')) throw new Error('--adapter takes redis, postgres or both');
if (values.from !== 'one' && values.from !== 'many') throw new Error('--from takes one or many');
const FROM = values.from === 'one' ? () => '127.0.0.2' : undefined;
/** How long after the roll the shares are read (issue 43: every node within ±15 % of the mean by then). */
const SHARES_AFTER_MS = 60_000;
const REDIS_URL = process.env.TEST_REDIS_URL ?? process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
/** SHUTDOWN_GRACE_SECONDS of every node (deploy/compose.yaml's 20 by default; a larger venue sets more, docs/operations.md). */
const GRACE_SECONDS = Number(values.grace);
if (!Number.isInteger(GRACE_SECONDS) || GRACE_SECONDS < 1) throw new Error('--grace takes whole seconds');
const FAIL_TIMEOUT_MS = 10_000; // deploy/nginx/nature-wall.conf
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const round = (n: number) => Math.round(n * 10) / 10;
const seconds = (ms: number) => Math.round(ms / 100) / 10;
const benchStart = performance.now();

function tally(items: readonly string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const item of items) counts[item] = (counts[item] ?? 0) + 1;
  return counts;
}

async function ok(answer: Promise<RestAnswer>): Promise<RestAnswer> {
  const a = await answer;
  if (a.status < 200 || a.status > 299) throw new Error(`${a.method} ${a.path}: ${a.status} ${JSON.stringify(a.body)}`);
  return a;
}

/**
 * How often the fan-out phases switch (each waits for every wall first): half a second is twice
 * the p99 through the cluster at 3,000 walls here, and keeps the run within 10 minutes.
 */
const CHANGE_EVERY_MS = 500;
/** Walls opened at a time (each batch registered before the next). */
const OPEN_BATCH = 500;

/**
 * Unmeasured switches first, as bench:fanout makes: each phase's nodes are new processes (the
 * one-node reference without nginx too) and their first pushes run cold code — with two, the
 * cluster's first measured switch was its slowest by far (its three nodes each took 70–90 ms to
 * emit to 333 walls, 25–40 ms afterwards), and one switch of 30 sets the p99.
 */
const WARM_UP = 5;

/**
 * PUT default scene `sceneIds[i % 2]` `count` times, every CHANGE_EVERY_MS; p50/p99 of PUT start → each wall's receipt,
 * and how late each server's event loop ran over the measured switches (bench/memory-probe.ts; with
 * NW_BENCH_CPU_PROFILE each server's CPU profile of them).
 */
async function fanout(base: string, walls: ClusterWall[], sceneIds: number[], count: number, servers: readonly ServerProcess[], placed?: { nodeIds: readonly string[]; ofWall: readonly string[] }) {
  const latencies: number[] = [];
  const nodeLatencies = placed?.nodeIds.map(() => [] as number[]);
  // Each wall's node as an index into nodeIds (-1: not listed, counted in the whole only).
  const nodeOfWall = placed?.ofWall.map((id) => placed.nodeIds.indexOf(id));
  // Each measured switch's answer and its walls' p50 / slowest: whether a tail is one switch or many.
  const switches: { at_s: number; put_ms: number; p50_ms: number; max_ms: number; by_node?: ({ p50_ms: number; max_ms: number } | null)[] }[] = [];
  let missed = 0;
  // The first switch goes to the scene not shown: one to the scene already shown pushes nothing,
  // and waiting for it to arrive would stall the phase (and move it in time against the walls' clock refresh).
  const current = ((await ok(rest(base, 'GET', '/api/config/default-scene'))).body as { scene_id: number | null }).scene_id;
  const first = current === sceneIds[0] ? 1 : 0;
  for (let i = 0; i < count + WARM_UP; i++) {
    if (i === 0) await Promise.all(servers.map((s) => s.profile()));
    if (i === WARM_UP) await Promise.all(servers.map((s) => s.loop()));
    const sceneId = sceneIds[(i + first) % 2]!;
    const start = performance.now();
    await ok(rest(base, 'PUT', '/api/config/default-scene', { scene_id: sceneId }));
    const putMs = performance.now() - start;
    if (stallsWatched) console.error(`[switch] ${i} from ${Math.round(performance.timeOrigin + start)} put ${Math.round(putMs)} ms`);
    await until(() => walls.every((w) => sawSceneAt(w, sceneId, start) !== undefined), 10_000, 'every wall saw the switch').catch(() => undefined);
    if (i >= WARM_UP) {
      const these: number[] = [];
      // Through the cluster, each node's walls apart too: whether a slow switch was one node's.
      const byNode = placed?.nodeIds.map(() => [] as number[]);
      walls.forEach((w, k) => {
        const at = sawSceneAt(w, sceneId, start);
        if (at === undefined) missed++;
        else {
          these.push(at - start);
          byNode?.[nodeOfWall![k]!]?.push(at - start);
        }
      });
      latencies.push(...these);
      byNode?.forEach((ms, n) => nodeLatencies![n]!.push(...ms));
      if (these.length > 0) {
        const by_node = byNode?.map((ms) => (ms.length === 0 ? null : { p50_ms: round(percentile(ms, 50)), max_ms: round(highest(ms)) }));
        switches.push({ at_s: seconds(start - benchStart), put_ms: round(putMs), p50_ms: round(percentile(these, 50)), max_ms: round(highest(these)), ...(by_node ? { by_node } : {}) });
      }
    }
    await sleep(Math.max(0, CHANGE_EVERY_MS - (performance.now() - start)));
  }
  const serverLoops = await Promise.all(servers.map((s) => s.loop()));
  await Promise.all(servers.map((s) => s.profile(true)));
  const slowest = switches.sort((a, b) => b.max_ms - a.max_ms).slice(0, 3);
  const by_node = nodeLatencies?.map((ms) => (ms.length === 0 ? null : { p50_ms: round(percentile(ms, 50)), p99_ms: round(percentile(ms, 99)) }));
  return { p50_ms: round(percentile(latencies, 50)), p99_ms: round(percentile(latencies, 99)), max_ms: round(highest(latencies)), missed, slowest, server_event_loop: serverLoops, ...(by_node ? { by_node } : {}) };
}

async function runAdapter(adapter: 'redis' | 'postgres') {
  // Each line says when (seconds since the bench started): where the run's minutes go.
  const log = (...parts: unknown[]) => console.error(`[cluster ${adapter} ${SCREENS} +${seconds(performance.now() - benchStart)} s]`, ...parts);
  const pg = await startOwnedPostgres();
  const env: NodeJS.ProcessEnv = {
    DATABASE_URL: pg.url,
    ADMIN_API_TOKEN: FAULT_TOKEN,
    TRUST_PROXY: 'true',
    SHUTDOWN_GRACE_SECONDS: String(GRACE_SECONDS),
    SEED_DEMO: 'false',
    SCREEN_APPROVAL: 'off',
    LOG_LEVEL: 'warn',
    // src/server.ts: REDIS_URL set → the Redis Streams adapter, unset → the Postgres adapter.
    REDIS_URL: adapter === 'redis' ? REDIS_URL : '',
    NW_REDIS_STREAM: `nw-bench-cluster-${randomBytes(4).toString('hex')}`,
  };
  const nodes: ServerProcess[] = [];
  const cleanup: (() => Promise<void>)[] = [];
  let walls: ClusterWall[] = [];
  try {
    // ---- one node, no nginx: the reference -----------------------------------------------
    log('one node, no nginx');
    const single = await startServerProcess({ env });
    cleanup.push(() => single.stop());
    const streamIds: number[] = [];
    const sceneIds: number[] = [];
    for (const i of [0, 1]) {
      const stream = await ok(rest(single.base, 'POST', '/api/streams', { name: `Bench cam ${i}`, url: `https://example.org/bench-cluster-${i}.m3u8`, category: 'ocean' }));
      streamIds.push((stream.body as { id: number }).id);
      const scene = await ok(rest(single.base, 'POST', '/api/scenes', { name: `Bench scene ${i}`, selection_algorithm: 'manual', stream_ids: [streamIds[i]] }));
      sceneIds.push((scene.body as { id: number }).id);
    }
    walls = await openWalls(single.base, SCREENS, { from: FROM, batch: OPEN_BATCH });
    log(`${SCREENS} walls open`);
    const oneNode = await fanout(single.base, walls, sceneIds, CHANGES, [single]);
    log('one node fan-out', oneNode);
    walls.forEach((w) => w.client.close());
    walls = [];
    // The same node behind the shipped nginx, as one node is deployed: what the balancer's hop
    // costs, apart from what the cluster does.
    const alone = await startNginx([`127.0.0.1:${single.port}`]);
    cleanup.push(() => alone.stop());
    walls = await openWalls(alone.base, SCREENS, { from: FROM, batch: OPEN_BATCH });
    const oneNodeNginx = await fanout(alone.base, walls, sceneIds, CHANGES, [single]);
    log('one node behind nginx fan-out', oneNodeNginx);
    walls.forEach((w) => w.client.close());
    walls = [];
    await alone.stop();
    cleanup.pop();
    await single.stop();
    cleanup.pop();

    // ---- three nodes behind nginx --------------------------------------------------------
    log('three nodes behind nginx');
    const envOf = (i: number) => ({ ...env, NODE_NAME: nodeName(i) });
    for (let i = 0; i < 3; i++) nodes.push(await startServerProcess({ env: envOf(i), keepDataDir: true }));
    const nodeIds = await Promise.all(nodes.map((n) => nodeIdOf(n.base)));
    const nginx = await startNginx(nodes.map((n) => `127.0.0.1:${n.port}`));
    cleanup.push(() => nginx.stop());
    const base = nginx.base;
    const opened = performance.now();
    walls = await openWalls(base, SCREENS, { from: FROM, batch: OPEN_BATCH });
    log(`${SCREENS} walls open in ${seconds(performance.now() - opened)} s`);
    // Each node's walls, or null (said in the log) while the screen list stays partial: a node too
    // busy to answer in time is never counted as holding none.
    const shares = async (): Promise<number[] | null> =>
      nodesOfWalls(base, walls).then(
        (placed) => countsOn(placed, nodeIds),
        (error: unknown) => (log(String(error)), null),
      );
    // Each wall's node, or null (said in the log) while the screen list stays partial, as shares() does.
    const placedBefore = await nodesOfWalls(base, walls).catch((error: unknown) => (log(String(error)), null));
    const spreadBefore = placedBefore && countsOn(placedBefore, nodeIds);
    log('walls per node', spreadBefore);
    const cluster = await fanout(base, walls, sceneIds, CHANGES, nodes, placedBefore ? { nodeIds, ofWall: placedBefore } : undefined);
    log('cluster fan-out', cluster);
    const fanouts = {
      fanout_cluster: cluster,
      fanout_one_node_no_nginx: oneNode,
      fanout_one_node_nginx: oneNodeNginx,
      fanout_p99_cluster_over_one_node: Math.round((cluster.p99_ms / oneNode.p99_ms) * 100) / 100,
      fanout_p99_cluster_over_one_node_nginx: Math.round((cluster.p99_ms / oneNodeNginx.p99_ms) * 100) / 100,
      walls_per_node_before: spreadBefore,
    };
    if (values['fanout-only']) return fanouts;

    // ---- the rolling restart, under traffic ----------------------------------------------
    let tick = 0;
    let writing = true;
    const switches: { sceneId: number; answer: RestAnswer }[] = [];
    const created: RestAnswer[] = [];
    const writer = (async () => {
      while (writing) {
        const start = performance.now();
        const sceneId = sceneIds[tick % 2]!;
        const n = tick++;
        // One switch and one new stream a second, from a different source address each time.
        const [answer, stream] = await Promise.all([
          rest(base, 'PUT', '/api/config/default-scene', { scene_id: sceneId }, `127.0.0.${2 + (n % 253)}`),
          rest(base, 'POST', '/api/streams', { name: `Roll write ${n}`, url: `https://example.org/roll-${n}.m3u8`, category: 'nature' }, `127.0.0.${2 + ((n + 97) % 253)}`),
        ]);
        switches.push({ sceneId, answer });
        created.push(stream);
        await sleep(Math.max(0, 1000 - (performance.now() - start)));
      }
    })();
    const readers = [0, 1].map((k) =>
      restLoop(base, 50, (n) => ({ method: 'GET', path: (n + k) % 2 === 0 ? '/api/config/default-scene' : `/api/scenes/${sceneIds[0]}/streams` }), k * 131),
    );

    await sleep(2_000);
    const rollStart = performance.now();
    const restarts: Record<string, unknown>[] = [];
    let errorLogSeen = 0;
    let missedInRoll = 0;
    let movedBeforeCloseInRoll = 0;
    let heldInRoll = 0;
    let longestGapMs = 0;
    for (let i = 0; i < nodes.length; i++) {
      const old = nodes[i]!;
      const placed = await nodesOfWalls(base, walls, 30);
      const held = walls.filter((_, k) => placed[k] === nodeIds[i]);
      log(`restarting node ${i + 1} (${held.length} walls)`);
      const attemptsBefore = walls.map((w) => w.errors.length);
      const versionBefore = newestVersion(walls);
      const stoppedAt = performance.now();
      await old.stop();
      const exitedAt = performance.now();
      nodes[i] = await startServerProcess({ env: envOf(i), dataDir: old.dataDir, port: old.port });
      nodeIds[i] = await nodeIdOf(nodes[i]!.base);
      await until(() => walls.every((w) => w.back), 60_000, 'every wall back').catch((e: unknown) => log(String(e)));
      const gaps = walls.flatMap((w) => w.gaps.filter((g) => g.from >= stoppedAt));
      // SIGTERM → registered elsewhere: its move, or the end of its gap.
      const settled = held.map((w) => {
        const at = Math.min(w.moves.find((m) => m >= stoppedAt) ?? Infinity, w.gaps.find((g) => g.from >= stoppedAt)?.to ?? Infinity);
        return at - stoppedAt;
      });
      const movedBeforeClose = held.filter((w) => w.moves.some((m) => m >= stoppedAt && m <= exitedAt) && !w.gaps.some((g) => g.from >= stoppedAt && g.from <= exitedAt)).length;
      // Counted at the end (below), once the final switch has reached every wall: counted now, a
      // switch still on its way to most walls would look missed.
      const versionAfter = newestVersion(walls);
      const longest = Math.max(0, ...gaps.map((g) => g.connected - g.from));
      movedBeforeCloseInRoll += movedBeforeClose;
      heldInRoll += held.length;
      longestGapMs = Math.max(longestGapMs, longest);
      restarts.push({
        node: i + 1,
        exit_s: seconds(exitedAt - stoppedAt),
        walls_held: held.length,
        walls_moved_before_close: movedBeforeClose,
        walls_with_a_gap: new Set(walls.filter((w) => w.gaps.some((g) => g.from >= stoppedAt))).size,
        longest_without_connection_s: seconds(longest),
        reconnection_p99_s: settled.length > 0 && settled.every(Number.isFinite) ? seconds(percentile(settled, 99)) : null,
        walls_never_settled: settled.filter((ms) => !Number.isFinite(ms)).length,
        versions: [versionBefore, versionAfter],
        failed_attempts: walls.reduce((sum, w, k) => sum + w.errors.length - attemptsBefore[k]!, 0),
        failure_reasons: tally(walls.flatMap((w, k) => w.errors.slice(attemptsBefore[k]))),
      });
      // nginx's view of the same minutes, its messages counted by kind.
      const errorLog = (await nginx.errorLog()).split('\n').filter(Boolean);
      log('nginx error log', tally(errorLog.slice(errorLogSeen).map((line) => line.replace(/^.*?\[(\w+)\] \d+#\d+: \*?\d* ?/, '$1 ').replace(/,.*$/, ''))));
      errorLogSeen = errorLog.length;
      log(restarts.at(-1), 'shares now', await shares());
      if (i < nodes.length - 1) await sleep(FAIL_TIMEOUT_MS + 1_000);
    }
    const rollEnd = performance.now();
    log('roll done');
    writing = false;
    await writer;
    await Promise.all(readers.map((r) => r.stop()));

    // ---- what the roll cost --------------------------------------------------------------
    const during = [...switches.map((s) => s.answer), ...created, ...readers.flatMap((r) => r.answers)].filter((a) => a.startedAt >= rollStart && a.startedAt <= rollEnd);
    const byStatus: Record<string, number> = {};
    for (const a of during) byStatus[String(a.status)] = (byStatus[String(a.status)] ?? 0) + 1;
    for (const line of failed(during).slice(0, 10)) log('failed:', line);

    // Acknowledged writes: every created stream is there, and the default scene is the last acknowledged switch.
    const acknowledged = created.filter((a) => a.status === 201).map((a) => (a.body as { id: number }).id);
    let lost = 0;
    for (const id of acknowledged) if ((await rest(base, 'GET', `/api/streams/${id}`)).status !== 200) lost++;
    const lastSwitch = switches.filter((s) => s.answer.status === 200).at(-1);
    const current = (await ok(rest(base, 'GET', '/api/config/default-scene'))).body as { scene_id: number };
    if (lastSwitch && current.scene_id !== lastSwitch.sceneId) lost++;

    // ---- the shares a minute later ---------------------------------------------------------
    const sharesLog: (number[] | null)[] = [];
    while (performance.now() < rollEnd + SHARES_AFTER_MS) {
      await sleep(Math.min(10_000, rollEnd + SHARES_AFTER_MS - performance.now()));
      sharesLog.push(await shares());
      log('shares', sharesLog.at(-1));
    }
    const sharesAfter = await shares();

    // The final switch reaches every wall (a generous bound; counted, not assumed).
    const finalScene = sceneIds.find((id) => id !== current.scene_id)!;
    const finalStart = performance.now();
    await ok(rest(base, 'PUT', '/api/config/default-scene', { scene_id: finalScene }));
    await until(() => walls.every((w) => sawSceneAt(w, finalScene, finalStart) !== undefined), 15_000, 'the final switch everywhere').catch(() => undefined);
    const reached = walls.filter((w) => sawSceneAt(w, finalScene, finalStart) !== undefined).length;
    for (const restart of restarts) {
      const [before, after] = restart.versions as [number, number];
      const missed = missedChanges(walls, before, after);
      restart.changes_missed = [...missed.values()].reduce((sum, v) => sum + v.length, 0);
      restart.walls_that_missed_a_change = missed.size;
      missedInRoll += missed.size;
      delete restart.versions;
    }

    return {
      ...fanouts,
      restarts,
      walls_moved_before_close: `${movedBeforeCloseInRoll}/${heldInRoll}`,
      longest_without_connection_s: seconds(longestGapMs),
      walls_that_missed_a_change: missedInRoll,
      walls_per_node_60s_after_roll: sharesAfter,
      share_spread_60s_after_roll: sharesAfter && Math.round(spreadFromMean(sharesAfter) * 1000) / 1000,
      roll_seconds: seconds(rollEnd - rollStart),
      rest_during_roll_by_status: byStatus,
      rest_5xx_during_roll: during.filter((a) => a.status >= 500).length,
      rest_unanswered_during_roll: during.filter((a) => a.status === 0).length,
      writes_acknowledged: acknowledged.length + switches.filter((s) => s.answer.status === 200).length,
      acknowledged_writes_lost: lost,
      final_change_reached: `${reached}/${SCREENS}`,
    };
  } finally {
    walls.forEach((w) => w.client.close());
    for (const step of cleanup.reverse()) await step().catch(() => undefined);
    await Promise.all(nodes.map((n) => n.stop().catch(() => undefined)));
    // Kept across each node's restarts (keepDataDir), so removed here.
    for (const n of nodes) await rm(n.dataDir, { recursive: true, force: true });
    await pg.destroy();
  }
}

const results: Record<string, unknown> = {};
for (const adapter of ADAPTERS) {
  results[adapter] = await runAdapter(adapter);
  console.error(`[cluster ${adapter} ${SCREENS}]`, JSON.stringify(results[adapter]));
}
console.log(
  JSON.stringify({
    benchmark: 'cluster',
    screens: SCREENS,
    changes: CHANGES,
    grace_seconds: GRACE_SECONDS,
    ...results,
    seconds: seconds(performance.now() - benchStart),
    goals: {
      longest_without_connection_s: '<= 2 (ambition 0.5)',
      walls_that_missed_a_change: 0,
      share_spread_60s_after_roll: '<= 0.15',
      fanout_p99_cluster_over_one_node: '<= 1.25',
      fanout_p99_cluster_over_one_node_nginx: '<= 1.25',
      rest_5xx_during_roll: 0,
      acknowledged_writes_lost: 0,
      final_change_reached: `${SCREENS}/${SCREENS}`,
    },
  }),
);
process.exit(0);
