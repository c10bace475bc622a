/**
 * `npm run bench:fanout -- --clients N`: how fast a default-scene switch reaches N walls.
 *
 * N wall clients (WebSocket, the product's own screen client and version rule) connect to a
 * Nature Wall server in another process; 30 default-scene changes go through REST, and each
 * client's receipt time is taken against the moment the REST call started. The same clients
 * then do the same against a bare Socket.IO server that broadcasts a scene-sized payload on
 * request — the engine's floor on this machine. Finally the Nature Wall process is killed
 * (SIGKILL) and restarted, and we time until every client is connected and resynced.
 * Both servers first get 5 unmeasured changes (JIT and pools warm up on each side), and a batch
 * of walls that connect and leave before the idle-memory baseline; then heap per idle wall is
 * taken on each (heap_per_idle_client_kb: both, and what Nature Wall adds to the engine).
 * The last line is one JSON object.
 */
import { performance } from 'node:perf_hooks';
import type { Registration, ScreenState } from '../src/shared/events.ts';
import { connectScreen, type ScreenClient } from '../src/shared/screen-client.ts';
import { applyScreenMessage } from '../src/shared/screen-state.ts';
import { benchArgs } from './args.ts';
import { benchAuth, startServerProcess, type Memory, type ServerProcess } from './server-process.ts';

const { clients: CLIENTS, changes: CHANGES } = benchArgs({ clients: 1000, changes: 30 });
const BATCH = 250;
const log = (...parts: unknown[]) => console.error(`[fanout ${CLIENTS}]`, ...parts);

interface Wall {
  client: ScreenClient;
  state: ScreenState | null;
  /** performance.now() of each applied scene push, in order. */
  pushes: number[];
  /** performance.now() of the last registration snapshot received. */
  lastSnapshotAt: number;
}

const registration: Registration = { kind: 'wall', name: 'bench' };
const target = { kind: 'wall' as const, follows: null };

function openWall(base: string): Wall {
  const wall: Wall = { client: undefined as unknown as ScreenClient, state: null, pushes: [], lastSnapshotAt: 0 };
  wall.client = connectScreen({
    url: base,
    registration,
    socketOptions: { transports: ['websocket'], forceNew: true },
    onMessage: (message) => {
      const now = performance.now();
      if (message.type === 'state') wall.lastSnapshotAt = now;
      const next = applyScreenMessage(wall.state, message, target);
      if (next !== wall.state && message.type === 'scene') wall.pushes.push(now);
      wall.state = next;
    },
  });
  return wall;
}

async function until(condition: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 2));
  }
  return true;
}

async function connectWalls(base: string, count = CLIENTS): Promise<Wall[]> {
  const walls: Wall[] = [];
  while (walls.length < count) {
    const batch = Array.from({ length: Math.min(BATCH, count - walls.length) }, () => openWall(base));
    walls.push(...batch);
    if (!(await until(() => batch.every((w) => w.state !== null), 30_000))) throw new Error('walls did not register');
  }
  return walls;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

const WARMUP = 5;
const round = (n: number) => Math.round(n * 10) / 10;

/** Latencies of one server's changes; `change(i)` triggers change i and waits for every wall. */
function series(walls: Wall[], trigger: (i: number) => Promise<void>) {
  const latencies: number[] = [];
  let missed = 0;
  return {
    async change(i: number) {
      const start = performance.now();
      await trigger(i);
      await until(() => walls.every((w) => w.pushes.length > i), 5_000);
      for (const wall of walls) {
        const at = wall.pushes[i];
        if (wall.pushes.length <= i) wall.pushes[i] = NaN; // keep indexes aligned
        if (i < WARMUP) continue;
        if (at === undefined) missed++;
        else latencies.push(at - start);
      }
      await new Promise((r) => setTimeout(r, 100)); // let both sides go idle between changes
    },
    result() {
      latencies.sort((a, b) => a - b);
      return { p50_ms: round(percentile(latencies, 50)), p99_ms: round(percentile(latencies, 99)), max_ms: round(latencies.at(-1) ?? NaN), missed };
    },
  };
}

const perClientKb = (before: Memory, after: Memory) => ({
  heap: Math.round(((after.heapUsed - before.heapUsed) / CLIENTS / 1024) * 10) / 10,
  rss: Math.round(((after.rss - before.rss) / CLIENTS / 1024) * 10) / 10,
});

/**
 * One batch of walls connects, registers and leaves before a server's baseline is taken: the
 * code compiled and the pools opened for the first screens are paid once, not per screen, and
 * would otherwise be divided among the idle walls (about 1.8 KB each at 1,000 on Nature Wall).
 */
async function warmUp(server: ServerProcess): Promise<void> {
  const walls = await connectWalls(server.base, Math.min(BATCH, CLIENTS));
  walls.forEach((w) => w.client.close());
}

/** Heap and RSS once clients are idle (or the warm-up walls gone): past the 10 s rate-limit window. */
async function idleMemory(server: ServerProcess, walls: Wall[] | null, baseline: Memory | null) {
  await new Promise((r) => setTimeout(r, 11_000));
  const memory = await server.memory();
  log(`${walls ? `${walls.length} idle walls` : 'baseline'}: heap ${(memory.heapUsed / 2 ** 20).toFixed(2)} MB, rss ${(memory.rss / 2 ** 20).toFixed(1)} MB`);
  return walls && baseline ? { memory, perClient: perClientKb(baseline, memory) } : { memory, perClient: null };
}

// ---- both servers, both sets of walls ---------------------------------------------------
log('starting Nature Wall');
let natureWall = await startServerProcess({ keepDataDir: true });
const base = natureWall.base;
const scenes = (await (await fetch(`${base}/api/scenes?active=true`)).json()) as { id: number; name: string }[];
const { scene_id: defaultId } = (await (await fetch(`${base}/api/config/default-scene`)).json()) as { scene_id: number };
const other = scenes.find((s) => s.id !== defaultId)!.id;
const payload = { scene: await (await fetch(`${base}/api/scenes/${defaultId}`)).json(), streams: await (await fetch(`${base}/api/scenes/${defaultId}/streams`)).json() };
log('starting the bare Socket.IO server');
const bare = await startServerProcess({ script: 'bench/bare-server.ts', env: { BARE_PAYLOAD: JSON.stringify(payload) } });

/** How long the REST answer of a default-scene switch takes (REST call → response). */
const writeMs: Record<'no_screens' | 'with_screens', number[]> = { no_screens: [], with_screens: [] };
async function switchDefault(sceneId: number, into: number[] | null): Promise<void> {
  const start = performance.now();
  const res = await fetch(`${base}/api/config/default-scene`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', ...benchAuth },
    body: JSON.stringify({ scene_id: sceneId }),
  });
  if (!res.ok) throw new Error(`PUT default scene: ${res.status}`);
  into?.push(performance.now() - start);
}
log('timing writes with no screens');
for (let i = 0; i < WARMUP + CHANGES; i++) {
  await switchDefault(i % 2 === 0 ? other : defaultId, i < WARMUP ? null : writeMs.no_screens);
  await new Promise((r) => setTimeout(r, 50));
}
await switchDefault(defaultId, null);

log('warming both servers up with a batch of walls that come and go');
await warmUp(natureWall);
await warmUp(bare);
const nwBaseline = (await idleMemory(natureWall, null, null)).memory;
const bareBaseline = (await idleMemory(bare, null, null)).memory;
log('connecting walls');
const nwWalls = await connectWalls(base);
const nwMemory = await idleMemory(natureWall, nwWalls, nwBaseline);
const bareWalls = await connectWalls(bare.base);
const bareMemory = await idleMemory(bare, bareWalls, bareBaseline);

// Interleaved, alternating which goes first, so both see the same machine noise.
log('measuring');
const nw = series(nwWalls, (i) => switchDefault(i % 2 === 0 ? other : defaultId, i < WARMUP ? null : writeMs.with_screens));
const floor = series(bareWalls, async () => {
  const res = await fetch(`${bare.base}/trigger`, { method: 'POST' });
  if (!res.ok) throw new Error(`trigger: ${res.status}`);
});
for (let i = 0; i < WARMUP + CHANGES; i++) {
  const [first, second] = i % 2 === 0 ? [nw, floor] : [floor, nw];
  await first.change(i);
  await second.change(i);
}
const nwResult = nw.result();
const bareResult = floor.result();
bareWalls.forEach((w) => w.client.close());
await bare.stop();

// Kill and restart: every wall must reconnect and get a fresh snapshot.
log('killing and restarting Nature Wall');
const killedAt = performance.now();
await natureWall.kill();
const restartAt = performance.now();
natureWall = await startServerProcess({ dataDir: natureWall.dataDir, port: natureWall.port });
const readyAt = performance.now();
const resynced = await until(() => nwWalls.every((w) => w.lastSnapshotAt > killedAt && w.client.socket.connected), 60_000);
const resyncedAt = performance.now();
const resync = {
  all_resynced: resynced,
  seconds_after_restart: Math.round((resyncedAt - restartAt) / 100) / 10,
  seconds_after_kill: Math.round((resyncedAt - killedAt) / 100) / 10,
  server_start_seconds: Math.round((readyAt - restartAt) / 100) / 10,
};
nwWalls.forEach((w) => w.client.close());
await natureWall.stop();

console.log(
  JSON.stringify({
    clients: CLIENTS,
    changes: CHANGES,
    nature_wall: nwResult,
    bare_engine: bareResult,
    p99_ratio: Math.round((nwResult.p99_ms / bareResult.p99_ms) * 100) / 100,
    default_switch_write_ms: Object.fromEntries(
      Object.entries(writeMs).map(([k, v]) => {
        const sorted = [...v].sort((a, b) => a - b);
        return [k, { p50: round(percentile(sorted, 50)), p99: round(percentile(sorted, 99)) }];
      }),
    ),
    idle_kb_per_client: { nature_wall: nwMemory.perClient, bare_engine: bareMemory.perClient },
    /** Heap per idle wall after a full GC (KB): Nature Wall, the bare engine, and what Nature Wall adds. */
    heap_per_idle_client_kb: {
      nature_wall: nwMemory.perClient?.heap ?? null,
      bare_engine: bareMemory.perClient?.heap ?? null,
      difference: nwMemory.perClient && bareMemory.perClient ? round(nwMemory.perClient.heap - bareMemory.perClient.heap) : null,
    },
    resync,
    goals: { p99_ratio: '<= 1.25', missed: 0, heap_kb_per_client: '<= 10', heap_kb_over_engine: '<= 0.5', resync_seconds_at_1000: '<= 5' },
  }),
);
process.exit(0);
