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
 * `--offline N` adds N walls that come and go before that (screens switched off, still watched).
 * The last line is one JSON object.
 *
 * Each push is matched to the change that caused it by its `version` (one cluster-wide counter,
 * the same for every wall a change reaches), never by its position in a wall's list: a late,
 * missing or extra push cannot shift the others onto the wrong change. The changes are made one
 * after another, so their versions rise with them; change k's version is the lowest
 * `scene:default-changed` version above change k-1's, first received after change k was made,
 * and (Nature Wall) showing the scene change k switched to. A run is refused — no timing
 * figures, exit code 1, the last line `{ "refused": … }` — when any push is missing, extra
 * (a version no change made, or the same version twice to one wall, or any other state push
 * to a measured wall), any change has no version, or any latency is negative. Late pushes
 * (received after the next change on that server was made) are counted and printed, and timed.
 */
import { rm } from 'node:fs/promises';
import { performance } from 'node:perf_hooks';
import type { Registration, ScreenState } from '../src/shared/events.ts';
import { connectScreen, type ScreenClient } from '../src/shared/screen-client.ts';
import { applyScreenMessage, type ScreenMessage } from '../src/shared/screen-state.ts';
import { benchArgs } from './args.ts';
import { benchAuth, startServerProcess, type Memory, type ServerProcess } from './server-process.ts';
import { highest, median, percentile } from './stats.ts';
import { stallsWatched, watchStalls } from './stalls.ts';

watchStalls('bench');

const { clients: CLIENTS, changes: CHANGES, offline: OFFLINE } = benchArgs({ clients: 1000, changes: 30, offline: 0 });
const BATCH = 250;
const log = (...parts: unknown[]) => console.error(`[fanout ${CLIENTS}]`, ...parts);

/** One state-bearing message a wall received while its series was recording. */
interface Push {
  /** The Socket.IO event (`scene:default-changed`, `scene:updated`, `screen:state`, …). */
  event: string;
  version: number;
  /** The scene it shows (null: none, or a message without a scene). */
  sceneId: number | null;
  /** performance.now() at receipt. */
  at: number;
  /** Whether the version rule applied it (false: stale, a later version was already shown). */
  applied: boolean;
}

interface Wall {
  client: ScreenClient;
  state: ScreenState | null;
  /** The highest version this wall has received (applied or not). */
  maxVersion: number;
  /** Every state-bearing message received while recording; null when not recording. */
  pushes: Push[] | null;
  /** The event name of the message being handled (onAny runs before the event's own listener). */
  event: string;
  /** performance.now() of the last registration snapshot received. */
  lastSnapshotAt: number;
  /** performance.now() of the last time its socket connected. */
  connectedAt: number;
}

/** Each wall a device id of its own, as an installed wall has (its assignments and proof of play are kept). */
let wallsOpened = 0;
const registrationOf = (): Registration => ({ kind: 'wall', name: 'bench', device: `bench-fanout-${String(++wallsOpened).padStart(5, '0')}` });
const target = { kind: 'wall' as const, follows: null };

function sceneIdOf(message: ScreenMessage): number | null {
  switch (message.type) {
    case 'scene':
      return message.payload.scene.id;
    case 'scene-deleted':
      return message.payload.scene_id;
    case 'state':
      return message.state.kind === 'wall' ? (message.state.scene?.id ?? null) : null;
    case 'kiosk':
      return message.state.scene?.id ?? null;
  }
}

/** The events connectScreen hands to onMessage (registration answers come as acks, with no event). */
const MESSAGE_EVENTS = new Set(['screen:state', 'scene:default-changed', 'scene:updated', 'scene:deleted', 'kiosk:stream']);

function openWall(base: string): Wall {
  const wall: Wall = { client: undefined as unknown as ScreenClient, state: null, maxVersion: 0, pushes: null, event: '', lastSnapshotAt: 0, connectedAt: 0 };
  wall.client = connectScreen({
    url: base,
    registration: registrationOf(),
    socketOptions: { transports: ['websocket'], forceNew: true },
    onMessage: (message) => {
      const now = performance.now();
      if (message.type === 'state') wall.lastSnapshotAt = now;
      const next = applyScreenMessage(wall.state, message, target);
      const version = message.type === 'state' || message.type === 'kiosk' ? message.state.version : message.payload.version;
      wall.maxVersion = Math.max(wall.maxVersion, version);
      // A registration's answer comes as a 'state' message too: named by the socket event, or 'screen:register'.
      const event = wall.event || 'screen:register';
      wall.event = '';
      wall.pushes?.push({ event, version, sceneId: sceneIdOf(message), at: now, applied: next !== wall.state });
      wall.state = next;
    },
  });
  wall.client.socket.on('connect', () => (wall.connectedAt = performance.now()));
  wall.client.socket.onAny((event: string) => {
    if (MESSAGE_EVENTS.has(event)) wall.event = event;
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

const WARMUP = 5;
const round = (n: number) => Math.round(n * 10) / 10;

interface Change {
  /** performance.now() when the change was made (its REST call or trigger started). */
  start: number;
  /** The scene it switched to (null: the bare engine, which always sends the same scene). */
  scene: number | null;
}

interface Attribution {
  /** Measured latencies (after the warm-up changes), ms. */
  latencies: number[];
  /** Each change's version (null: no push could be attributed to it). */
  versions: (number | null)[];
  /** Pushes matched to a change (all changes, warm-up included). */
  matched: number;
  /** Of those, received after the next change on that server was made. */
  late: number;
  /** Wall × change pairs with no push (all changes). */
  missing: number;
  /** Measured changes' wall × change pairs with no push (the old `missed`). */
  missed: number;
  /** Pushes no change caused, or a second copy of one, by event name. */
  unmatched: Record<string, number>;
  /** Pushes the version rule did not apply (a later one was already shown). */
  not_applied: number;
  negative: number;
  /** Changes no push could be attributed to. */
  unattributed_changes: number[];
  /** Each measured change's latencies (by change index): whether a tail is one switch or many. */
  byChange: Map<number, number[]>;
}

/**
 * Matches every recorded push to the change that caused it, by version. The changes were made
 * one after another, so their versions rise in the order they were made: change k's is the
 * lowest `scene:default-changed` version above change k-1's that was first received (by any
 * wall) after change k was made and (when known) shows the scene change k switched to.
 */
function attribute(walls: Wall[], changes: Change[], endedAt: number): Attribution {
  const seen = new Map<number, { first: number; scenes: Set<number | null> }>();
  for (const wall of walls) {
    for (const push of wall.pushes ?? []) {
      if (push.event !== 'scene:default-changed') continue;
      const entry = seen.get(push.version) ?? { first: Infinity, scenes: new Set() };
      entry.first = Math.min(entry.first, push.at);
      entry.scenes.add(push.sceneId);
      seen.set(push.version, entry);
    }
  }
  const candidates = [...seen.entries()].sort(([a], [b]) => a - b);
  const versions: (number | null)[] = [];
  const changeOf = new Map<number, number>();
  let floor = -Infinity;
  changes.forEach((change, k) => {
    const found = candidates.find(
      ([version, { first, scenes }]) =>
        version > floor && first >= change.start && scenes.size === 1 && (change.scene === null || scenes.has(change.scene)),
    );
    versions.push(found ? found[0] : null);
    if (!found) return;
    floor = found[0];
    changeOf.set(found[0], k);
  });
  const result: Attribution = { latencies: [], versions, matched: 0, late: 0, missing: 0, missed: 0, unmatched: {}, not_applied: 0, negative: 0, unattributed_changes: [], byChange: new Map() };
  versions.forEach((v, k) => v === null && result.unattributed_changes.push(k));
  for (const wall of walls) {
    const got = new Array<boolean>(changes.length).fill(false);
    for (const push of wall.pushes ?? []) {
      const k = push.event === 'scene:default-changed' ? changeOf.get(push.version) : undefined;
      if (k === undefined || got[k]) {
        result.unmatched[push.event] = (result.unmatched[push.event] ?? 0) + 1;
        continue;
      }
      got[k] = true;
      result.matched++;
      const latency = push.at - changes[k]!.start;
      if (latency < 0) result.negative++;
      if (push.at > (changes[k + 1]?.start ?? endedAt)) result.late++;
      if (!push.applied) result.not_applied++;
      if (k >= WARMUP) {
        result.latencies.push(latency);
        const ofChange = result.byChange.get(k) ?? [];
        ofChange.push(latency);
        result.byChange.set(k, ofChange);
      }
    }
    got.forEach((g, k) => {
      if (g) return;
      result.missing++;
      if (k >= WARMUP) result.missed++;
    });
  }
  return result;
}

/** Why a series' figures cannot be trusted (empty: they can). */
function brokenBy(name: string, a: Attribution): string[] {
  const reasons: string[] = [];
  const unmatched = Object.values(a.unmatched).reduce((n, c) => n + c, 0);
  if (a.unattributed_changes.length > 0) reasons.push(`${name}: no push could be attributed to change(s) ${a.unattributed_changes.join(', ')}`);
  if (a.missing > 0) reasons.push(`${name}: ${a.missing} push(es) missing (a wall never received a change)`);
  if (unmatched > 0) reasons.push(`${name}: ${unmatched} push(es) no change caused or received twice (${JSON.stringify(a.unmatched)})`);
  if (a.negative > 0) reasons.push(`${name}: ${a.negative} negative latenc(ies)`);
  return reasons;
}

/** Latencies of one server's changes; `change(i)` triggers change i and waits for every wall. */
function series(name: string, walls: Wall[], trigger: (i: number) => Promise<void>, sceneOf: (i: number) => number | null) {
  const changes: Change[] = [];
  for (const wall of walls) wall.pushes = []; // record from here on
  return {
    async change(i: number) {
      // Whatever any wall has seen so far is older than this change's version.
      const floor = Math.max(...walls.map((w) => w.maxVersion));
      const start = performance.now();
      changes[i] = { start, scene: sceneOf(i) };
      if (stallsWatched) console.error(`[switch] ${name} ${i} from ${Math.round(performance.timeOrigin + start)}`);
      await trigger(i);
      await until(() => walls.every((w) => w.maxVersion > floor), 5_000);
      await new Promise((r) => setTimeout(r, 100)); // let both sides go idle between changes
    },
    result() {
      const a = attribute(walls, changes, performance.now());
      for (const wall of walls) wall.pushes = null; // stop recording
      return {
        attribution: a,
        /** Asked only of a run that is not refused (below): a broken one may have no latency at all. */
        figures: () => ({
          p50_ms: round(percentile(a.latencies, 50)),
          p99_ms: round(percentile(a.latencies, 99)),
          max_ms: round(highest(a.latencies)),
          missed: a.missed,
          // Its three slowest switches (the change, its walls' p50 and slowest): one switch of 30 is 3.3 % of the samples.
          slowest: [...a.byChange]
            .map(([change, ms]) => ({ change, p50_ms: round(percentile(ms, 50)), max_ms: round(highest(ms)) }))
            .sort((x, y) => y.max_ms - x.max_ms)
            .slice(0, 3),
        }),
        pushes: {
          matched: a.matched,
          late: a.late,
          missing: a.missing,
          unmatched: a.unmatched,
          not_applied: a.not_applied,
          negative: a.negative,
          unattributed_changes: a.unattributed_changes.length,
        },
      };
    },
  };
}

/** Samples of one server's memory, each after a full GC: the median, and how far they spread (the noise). */
interface Sampled {
  heapUsed: number;
  rss: number;
  heapNoise: number;
}

const SAMPLES = 5;

async function sample(server: ServerProcess): Promise<Sampled> {
  const taken: Memory[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    taken.push(await server.memory());
    await new Promise((r) => setTimeout(r, 300));
  }
  const heaps = taken.map((m) => m.heapUsed);
  return { heapUsed: median(heaps), rss: median(taken.map((m) => m.rss)), heapNoise: Math.max(...heaps) - Math.min(...heaps) };
}

/**
 * Heap and RSS per idle client (KB), or null with the reason when the walls' heap is not above
 * the noise of the samples (a few hundred walls can weigh less than the heap moves between two
 * GCs): a figure that could be negative, or lost in the noise, is not printed.
 */
function perClientKb(before: Sampled, after: Sampled): { heap: number; rss: number } | { unmeasured: string } {
  const added = after.heapUsed - before.heapUsed;
  const noise = 2 * Math.max(before.heapNoise, after.heapNoise);
  if (added <= noise) {
    return { unmeasured: `the ${CLIENTS} walls added ${Math.round(added / 1024)} KB of heap, within the samples' noise (${Math.round(noise / 1024)} KB): run with more --clients` };
  }
  return { heap: Math.round((added / CLIENTS / 1024) * 10) / 10, rss: Math.round(((after.rss - before.rss) / CLIENTS / 1024) * 10) / 10 };
}
const heapOf = (figure: ReturnType<typeof perClientKb> | null) => (figure && 'heap' in figure ? figure.heap : null);

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
async function idleMemory(server: ServerProcess, walls: Wall[] | null, baseline: Sampled | null) {
  await new Promise((r) => setTimeout(r, 11_000));
  const memory = await sample(server);
  log(`${walls ? `${walls.length} idle walls` : 'baseline'}: heap ${(memory.heapUsed / 2 ** 20).toFixed(2)} MB (±${(memory.heapNoise / 2 ** 10).toFixed(0)} KB), rss ${(memory.rss / 2 ** 20).toFixed(1)} MB`);
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
// `--offline N`: N more walls come and go on Nature Wall first — a venue with screens switched
// off, each one a screen the server still watches (an offline alert, a row in the journal).
if (OFFLINE > 0) {
  log(`${OFFLINE} walls that come and go: screens offline while the others are measured`);
  for (let left = OFFLINE; left > 0; left -= BATCH) (await connectWalls(base, Math.min(BATCH, left))).forEach((w) => w.client.close());
}
const nwBaseline = (await idleMemory(natureWall, null, null)).memory;
const bareBaseline = (await idleMemory(bare, null, null)).memory;
log('connecting walls');
const nwWalls = await connectWalls(base);
const nwMemory = await idleMemory(natureWall, nwWalls, nwBaseline);
const bareWalls = await connectWalls(bare.base);
const bareMemory = await idleMemory(bare, bareWalls, bareBaseline);

// Interleaved, alternating which goes first, so both see the same machine noise.
log('measuring');
await natureWall.loop(); // each server's event-loop delay from here
await bare.loop();
await Promise.all([natureWall.profile(), bare.profile()]); // their profiles, when asked for (bench/memory-probe.ts)
const sceneOf = (i: number) => (i % 2 === 0 ? other : defaultId);
const nw = series('nature-wall', nwWalls, (i) => switchDefault(sceneOf(i), i < WARMUP ? null : writeMs.with_screens), sceneOf);
const floor = series(
  'bare',
  bareWalls,
  async () => {
    const res = await fetch(`${bare.base}/trigger`, { method: 'POST' });
    if (!res.ok) throw new Error(`trigger: ${res.status}`);
  },
  () => null,
);
for (let i = 0; i < WARMUP + CHANGES; i++) {
  const [first, second] = i % 2 === 0 ? [nw, floor] : [floor, nw];
  await first.change(i);
  await second.change(i);
}
const nwRun = nw.result();
const bareRun = floor.result();
/** How late each server's event loop ran while it was measured: a stall there delays its pushes. */
const serverLoop = { nature_wall: await natureWall.loop(), bare_engine: await bare.loop() };
await Promise.all([natureWall.profile(true), bare.profile(true)]);
log('server event loop while measuring', JSON.stringify(serverLoop));
bareWalls.forEach((w) => w.client.close());
await bare.stop();
const pushes = { nature_wall: nwRun.pushes, bare_engine: bareRun.pushes };
log('pushes (late / missing / unmatched / not applied):', JSON.stringify(pushes));
const broken = [...brokenBy('Nature Wall', nwRun.attribution), ...brokenBy('bare engine', bareRun.attribution)];
if (broken.length > 0) {
  nwWalls.forEach((w) => w.client.close());
  await natureWall.stop();
  await rm(natureWall.dataDir, { recursive: true, force: true });
  log('REFUSED: this run is broken, its timings are not printed:');
  broken.forEach((reason) => log(`  - ${reason}`));
  console.log(JSON.stringify({ clients: CLIENTS, changes: CHANGES, refused: broken, pushes }));
  process.exit(1);
}
const nwResult = nwRun.figures();
const bareResult = bareRun.figures();

// Kill and restart: every wall must reconnect and get a fresh snapshot.
log('killing and restarting Nature Wall');
const killedAt = performance.now();
await natureWall.kill();
const restartAt = performance.now();
natureWall = await startServerProcess({ dataDir: natureWall.dataDir, port: natureWall.port });
const readyAt = performance.now();
const resynced = await until(() => nwWalls.every((w) => w.lastSnapshotAt > killedAt && w.client.socket.connected), 60_000);
const resyncedAt = performance.now();
/** From the server's readiness: when the walls came back (their client's backoff) and when each had its snapshot (the server's answer). */
const spread = (times: number[]) => {
  const seconds = times.map((t) => Math.round((t - readyAt) / 100) / 10);
  return { p50: percentile(seconds, 50), p90: percentile(seconds, 90), max: highest(seconds) };
};
const resync = {
  all_resynced: resynced,
  reconnected_after_ready_s: spread(nwWalls.map((w) => w.connectedAt)),
  snapshot_after_ready_s: spread(nwWalls.map((w) => w.lastSnapshotAt)),
  seconds_after_restart: Math.round((resyncedAt - restartAt) / 100) / 10,
  seconds_after_kill: Math.round((resyncedAt - killedAt) / 100) / 10,
  server_start_seconds: Math.round((readyAt - restartAt) / 100) / 10,
};
nwWalls.forEach((w) => w.client.close());
await natureWall.stop();
await rm(natureWall.dataDir, { recursive: true, force: true }); // kept across the restart; gone now

console.log(
  JSON.stringify({
    clients: CLIENTS,
    changes: CHANGES,
    offline_screens: OFFLINE,
    nature_wall: nwResult,
    bare_engine: bareResult,
    p99_ratio: Math.round((nwResult.p99_ms / bareResult.p99_ms) * 100) / 100,
    default_switch_write_ms: Object.fromEntries(
      Object.entries(writeMs).map(([k, v]) => [k, { p50: round(percentile(v, 50)), p99: round(percentile(v, 99)) }]),
    ),
    idle_kb_per_client: { nature_wall: nwMemory.perClient, bare_engine: bareMemory.perClient },
    /** Heap per idle wall after a full GC (KB): Nature Wall, the bare engine, and what Nature Wall adds. */
    heap_per_idle_client_kb: {
      nature_wall: heapOf(nwMemory.perClient),
      bare_engine: heapOf(bareMemory.perClient),
      difference: heapOf(nwMemory.perClient) !== null && heapOf(bareMemory.perClient) !== null ? round(heapOf(nwMemory.perClient)! - heapOf(bareMemory.perClient)!) : null,
    },
    pushes,
    server_event_loop: serverLoop,
    resync,
    goals: { p99_ratio: '<= 1.25', missed: 0, heap_kb_per_client: '<= 10', heap_kb_over_engine: '<= 0.5', resync_seconds_at_1000: '<= 5' },
  }),
);
process.exit(0);
