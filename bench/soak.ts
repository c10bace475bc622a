/**
 * `npm run bench:soak`: does a Live Wall that runs for months keep a flat memory?
 *
 * One Live Wall (`/app`, following the default scene) in headless Chromium against the real
 * server (its own process, a throw-away database), driven through N default-scene changes over
 * REST (default 1,000, `--changes N`). The scenes rotate so that players really come and go on
 * every change: looping MP4 files and two live HLS streams (hls.js, Media Source Extensions)
 * from the local media fixtures (tests/e2e/support/media.ts, served on 127.0.0.1) — and, every
 * fifth change, two cameras the wall has never seen (new ids and places; dead addresses). Each
 * change is waited for until every shown tile has a decoded frame or shows its failure. At 30,
 * 100, 300, 1,000 and N changes, after a forced garbage collection (CDP
 * HeapProfiler.collectGarbage): the JavaScript heap (Runtime.getHeapUsage), DOM nodes and JS
 * event listeners (Memory.getDOMCounters), and live objects by prototype (Runtime.queryObjects: <video> elements attached or not,
 * MediaSource objects, hls.js instances) against what the wall shows.
 *
 * At 100 changes and at the end it also takes a heap snapshot: the machine code V8 added to
 * functions the wall already had (it optimizes more of them as they get hot; at most one code per
 * function, so it levels off — warm-up, not something the wall piles up), and, on stderr, the
 * constructors whose count or size grew most (what to look at when it grows).
 * `--no-build` uses the web build as it is (WEB_DIST, else dist/web). The last line is one JSON
 * object: heap_100 / heap_1000 (KB, or heap_<N> for another --changes), growth_pct from 100
 * changes to the last, growth_without_jit_pct (the same less that warm-up), nodes_*, listeners_*,
 * media elements, and every sample. Goal: growth without the JIT's warm-up ≤ 10 %.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../playwright.config.ts';
import { freePort } from '../src/free-port.ts';
import { apiClient } from '../tests/e2e/support/api.ts';
import { generateMedia, serveMedia } from '../tests/e2e/support/media.ts';
import { buildWorld } from '../tests/e2e/support/world.ts';
import { benchArgs } from './args.ts';
import { BENCH_TOKEN, benchAuth, startServerProcess } from './server-process.ts';

const args = benchArgs({ changes: 1000 }, ['no-build']);
const CHANGES = args.changes;
const CHECKPOINTS = [...new Set([30, 100, 300, 1000, CHANGES].filter((n) => n <= CHANGES))].sort((a, b) => a - b);
const root = path.resolve(import.meta.dirname, '..');
const webDist = process.env.WEB_DIST ?? path.join(root, 'dist/web');
const log = (...parts: unknown[]) => console.error('[soak]', ...parts);
const kb = (bytes: number) => Math.round((bytes / 1024) * 10) / 10;
const pct = (from: number, to: number) => Math.round(((to - from) / from) * 1000) / 10;

if (!args.on('no-build')) {
  log('building the web app into', webDist);
  execFileSync(process.execPath, [path.join(root, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn', '--outDir', webDist], { cwd: root, stdio: 'inherit' });
}

log('rendering local media');
const mediaDir = path.join(os.tmpdir(), 'nature-wall-e2e-media-v1');
await generateMedia(mediaDir);
const media = await serveMedia(mediaDir);
log('starting Nature Wall');
// A short flip lead: the walls still flip through their scheduler, a thousand changes just go faster.
const server = await startServerProcess({ env: { SEED_DEMO: 'false', WEB_DIST: webDist, SCENE_FLIP_LEAD_MS: '150' } });
const api = apiClient(server.base, BENCH_TOKEN);
const world = await buildWorld(api, media);
const s = world.streams;
const barcode = await api.createStream({ name: 'Barcode Live', url: media.syncUrl, category: 'nature' });
const twoLive = await api.createScene({
  name: 'Two Live Cameras',
  layout_type: 'mosaic',
  selection_algorithm: 'manual',
  max_streams: 5,
  stream_ids: [barcode.id, s.forest.id, s.reef.id, s.dusk.id],
});
// Each change adds and removes players (the HLS cameras come and go); five scenes, so that every
// checkpoint (30, 100, 300, 1,000) finds the wall on the same scene and the counts compare.
const rotation = [world.scenes.morning.id, world.scenes.ocean.id, twoLive.id, world.scenes.evening.id, world.scenes.peaks.id];

// ---- the browser, over the DevTools protocol itself ---------------------------------------------
// Not through Playwright: it enables the Network domain on its pages, and DevTools then keeps
// every XHR's data (hls.js loads a playlist or a segment each second) in the page's heap — a
// growth of the instrument, not of the wall. Here only Runtime, HeapProfiler and Memory are used.

interface Cdp {
  send<T = Record<string, unknown>>(method: string, params?: Record<string, unknown>): Promise<T>;
  on(method: string, listener: (params: Record<string, unknown>) => void): () => void;
  close(): void;
}

async function connectCdp(url: string): Promise<Cdp> {
  const socket = new WebSocket(url);
  await new Promise<void>((resolve, reject) => {
    socket.addEventListener('open', () => resolve(), { once: true });
    socket.addEventListener('error', () => reject(new Error(`DevTools socket ${url} failed`)), { once: true });
  });
  let nextId = 1;
  const pending = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
  const listeners = new Map<string, Set<(params: Record<string, unknown>) => void>>();
  socket.addEventListener('message', (event) => {
    const message = JSON.parse(String(event.data)) as { id?: number; result?: unknown; error?: { message: string }; method?: string; params?: Record<string, unknown> };
    if (message.id !== undefined) {
      const call = pending.get(message.id);
      pending.delete(message.id);
      if (message.error) call?.reject(new Error(message.error.message));
      else call?.resolve(message.result);
    } else if (message.method) listeners.get(message.method)?.forEach((listener) => listener(message.params ?? {}));
  });
  return {
    send: <T,>(method: string, params: Record<string, unknown> = {}) =>
      new Promise<T>((resolve, reject) => {
        const id = nextId++;
        pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
        socket.send(JSON.stringify({ id, method, params }));
      }),
    on(method, listener) {
      const set = listeners.get(method) ?? new Set();
      set.add(listener);
      listeners.set(method, set);
      return () => set.delete(listener);
    },
    close: () => socket.close(),
  };
}

async function launchChromium() {
  const port = await freePort();
  const profile = await mkdtemp(path.join(os.tmpdir(), 'nw-soak-chromium-'));
  const child = spawn(
    CHROMIUM_PATH,
    [...CHROMIUM_ARGS, '--headless', '--mute-audio', '--disable-background-timer-throttling', '--disable-renderer-backgrounding', '--disable-backgrounding-occluded-windows', `--remote-debugging-port=${port}`, `--user-data-dir=${profile}`, '--window-size=1280,720', 'about:blank'],
    { stdio: 'ignore' },
  );
  const http = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    if (await fetch(`${http}/json/version`).then((r) => r.ok, () => false)) break;
    if (i > 200) throw new Error('Chromium did not open its DevTools port');
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    /** A new tab on `url`, and a DevTools connection to it. */
    async open(url: string): Promise<Cdp> {
      const target = (await (await fetch(`${http}/json/new?${encodeURI(url)}`, { method: 'PUT' })).json()) as { webSocketDebuggerUrl: string };
      return connectCdp(target.webSocketDebuggerUrl);
    },
    async close() {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
      await rm(profile, { recursive: true, force: true });
    },
  };
}

/** The value of `expression` in the page (awaited if a promise). */
async function evaluate<T>(cdp: Cdp, expression: string): Promise<T> {
  const { result, exceptionDetails } = await cdp.send<{ result: { value?: unknown }; exceptionDetails?: { text: string } }>('Runtime.evaluate', { expression, awaitPromise: true, returnByValue: true });
  if (exceptionDetails) throw new Error(`in the page: ${exceptionDetails.text}`);
  return result.value as T;
}

/** Polls `condition` (an expression) in the page every 50 ms until true or `timeoutMs`. */
const waitFor = (cdp: Cdp, condition: string, timeoutMs: number) =>
  evaluate<boolean>(cdp, `new Promise((resolve) => {
    const deadline = Date.now() + ${timeoutMs};
    const poll = () => { let ok = false; try { ok = Boolean(${condition}); } catch {} if (ok || Date.now() > deadline) resolve(ok); else setTimeout(poll, 50); };
    poll();
  })`);

// Every fifth change shows two cameras the wall has never seen (new ids, new places, addresses
// that answer 404, so their players go through the failure path and its retries): a wall that
// runs for months meets new streams, and what a screen keeps per stream or place must not pile up.
const pool: number[] = [];
for (let i = 0; i < Math.ceil(CHANGES / rotation.length) * 2; i++) {
  const stream = await api.createStream({
    name: `Soak Camera ${i + 1}`,
    url: `${media.deadUrl}?soak=${i}`,
    category: 'nature',
    location_name: `Soak Place ${i + 1}`,
    latitude: -60 + (i % 1200) * 0.1,
    longitude: ((i * 7) % 360) - 180,
    timezone: 'UTC',
  });
  pool.push(stream.id);
}
log(`${pool.length} cameras for the wall to meet once each`);
let nextFromPool = 0;
async function freshCameras(sceneId: number): Promise<void> {
  const ids = [s.reef.id, pool[nextFromPool++ % pool.length]!, pool[nextFromPool++ % pool.length]!];
  const res = await fetch(`${server.base}/api/scenes`, { method: 'PUT', headers: { 'content-type': 'application/json', ...benchAuth }, body: JSON.stringify({ id: sceneId, stream_ids: ids }) });
  if (!res.ok) throw new Error(`PUT scene: ${res.status} ${await res.text()}`);
}

const browser = await launchChromium();

interface Sample {
  changes: number;
  heap_kb: number;
  dom_nodes: number;
  js_event_listeners: number;
  documents: number;
  /** <video> elements alive in the page's heap (in the document or detached). */
  video_elements: number;
  /** <video> elements in the document. */
  videos_in_dom: number;
  media_sources: number;
  hls_instances: number;
  /** Direct players the wall shows or prepares (tiles with a video): what the counts above should be. */
  direct_tiles: number;
  hls_tiles: number;
}

/** How many live objects have `prototypeExpression` in their chain (after a GC: queryObjects collects first). */
async function liveObjects(cdp: Cdp, prototypeExpression: string): Promise<number> {
  type Remote = { result: { objectId?: string; value?: unknown } };
  const proto = await cdp.send<Remote>('Runtime.evaluate', { expression: prototypeExpression, awaitPromise: true, objectGroup: 'heap-bench' });
  if (!proto.result.objectId) return 0;
  const { objects } = await cdp.send<{ objects: { objectId: string } }>('Runtime.queryObjects', { prototypeObjectId: proto.result.objectId, objectGroup: 'heap-bench' });
  const { result } = await cdp.send<Remote>('Runtime.callFunctionOn', { objectId: objects.objectId, functionDeclaration: 'function () { return this.length; }', returnByValue: true });
  await cdp.send('Runtime.releaseObjectGroup', { objectGroup: 'heap-bench' });
  return Number(result.value);
}

/** The hls.js module's class, imported from the chunk the page itself loaded (null before any HLS stream). */
const HLS_PROTOTYPE = `(async () => {
  const entry = performance.getEntriesByType('resource').find((e) => /\\/assets\\/hls\\.light-[^/]*\\.js$/.test(e.name));
  return entry ? (await import(entry.name)).default.prototype : null;
})()`;

/** What the wall shows (a string: bench/ is type-checked without the DOM library). */
const SHOWN = `({
  videosInDom: document.querySelectorAll('video').length,
  directTiles: document.querySelectorAll('.wall-tile video').length,
  hlsTiles: document.querySelectorAll('.wall-tile .player[data-source="hls"]').length,
})`;

/** True once the wall shows scene `id` and every shown tile has a decoded frame (or an iframe / failure panel). */
const settledOn = (id: number) => `(() => {
  const wall = document.querySelector('.wall');
  if (wall?.getAttribute('data-scene-id') !== '${id}') return false;
  const tiles = [...document.querySelectorAll('.wall-tile:not(.wall-tile--incoming)')];
  return tiles.length > 0 && tiles.every((tile) => {
    const video = tile.querySelector('video');
    return (video && video.readyState >= 2) || tile.querySelector('iframe, .player--error');
  });
})()`;

async function sample(cdp: Cdp, changes: number): Promise<Sample> {
  await new Promise((r) => setTimeout(r, 1_500)); // players let go 250 ms after they leave; the last flip's work settles
  for (let i = 0; i < 3; i++) await cdp.send('HeapProfiler.collectGarbage');
  const heap = await cdp.send<{ usedSize: number }>('Runtime.getHeapUsage');
  const dom = await cdp.send<{ nodes: number; jsEventListeners: number; documents: number }>('Memory.getDOMCounters');
  const shown = await evaluate<{ videosInDom: number; directTiles: number; hlsTiles: number }>(cdp, SHOWN);
  return {
    changes,
    heap_kb: kb(heap.usedSize),
    dom_nodes: dom.nodes,
    js_event_listeners: dom.jsEventListeners,
    documents: dom.documents,
    video_elements: await liveObjects(cdp, 'HTMLVideoElement.prototype'),
    videos_in_dom: shown.videosInDom,
    media_sources: await liveObjects(cdp, 'MediaSource.prototype'),
    hls_instances: await liveObjects(cdp, HLS_PROTOTYPE),
    direct_tiles: shown.directTiles,
    hls_tiles: shown.hlsTiles,
  };
}

// ---- heap snapshots: which constructors grow ----------------------------------------------------
type Census = Map<string, { count: number; size: number }>;

/**
 * What V8's JIT holds in a snapshot: the machine code of compiled functions (Sparkplug baseline,
 * Maglev/Turbofan optimized: each `Code` with its instruction stream and deoptimization data —
 * never the bytecode, which belongs to the function) and the dependency lists optimized code
 * registers on maps and property cells. V8 keeps at most one optimized and one baseline code per
 * function and optimizes more of them as they get hot, so for functions that already existed this
 * is warm-up that levels off, not something the wall keeps (measured: one optimized code per
 * function at 100 and at 1,000 changes; 308 → 724 functions optimized). Code of functions that
 * did not exist at the baseline (new scripts, eval, `new Function`) stays counted.
 */
interface Jit {
  /** Bytes of machine code per owning function (SharedFunctionInfo node id). */
  codeByFunction: Map<number, number>;
  /** Every function (SharedFunctionInfo node id) in the heap. */
  functions: Set<number>;
  /** Bytes of dependency lists (`dependent_code`, `retained_maps`). */
  dependencyBytes: number;
}

/** Parts of a `Code` that exist only because it was compiled (what is reached from it, by name). */
const MACHINE_CODE_PARTS = new Set(['system / InstructionStream', 'system / TrustedByteArray', 'system / ProtectedFixedArray', 'system / TrustedWeakFixedArray', 'system / CodeWrapper', 'system / SharedFunctionInfoWrapper']);

async function census(cdp: Cdp): Promise<{ byName: Census; jit: Jit }> {
  const chunks: string[] = [];
  const off = cdp.on('HeapProfiler.addHeapSnapshotChunk', (event) => chunks.push(event.chunk as string));
  await cdp.send('HeapProfiler.collectGarbage');
  await cdp.send('HeapProfiler.takeHeapSnapshot', { reportProgress: false });
  off();
  const snapshot = JSON.parse(chunks.join('')) as {
    snapshot: { meta: { node_fields: string[]; node_types: [string[]]; edge_fields: string[]; edge_types: [string[]] } };
    nodes: number[];
    edges: number[];
    strings: string[];
  };
  const { meta } = snapshot.snapshot;
  const fields = meta.node_fields;
  const width = fields.length;
  const [typeAt, nameAt, idAt, sizeAt, edgeCountAt] = ['type', 'name', 'id', 'self_size', 'edge_count'].map((f) => fields.indexOf(f)) as [number, number, number, number, number];
  const types = meta.node_types[0];
  const byName: Census = new Map();
  const nodeCount = snapshot.nodes.length / width;
  const nameOf = (node: number) => snapshot.strings[snapshot.nodes[node * width + nameAt]!]!;
  const firstEdge = new Uint32Array(nodeCount + 1);
  const edgeWidth = meta.edge_fields.length;
  for (let n = 0, e = 0; n < nodeCount; n++) {
    firstEdge[n] = e;
    e += snapshot.nodes[n * width + edgeCountAt]! * edgeWidth;
  }
  firstEdge[nodeCount] = snapshot.edges.length;
  for (let i = 0; i < snapshot.nodes.length; i += width) {
    const type = types[snapshot.nodes[i + typeAt]!]!;
    const name = type === 'object' || type === 'native' || type === 'closure' ? snapshot.strings[snapshot.nodes[i + nameAt]!]!.slice(0, 80) : `(${type})`;
    const key = type === 'closure' ? `${name}()` : name;
    const entry = byName.get(key) ?? { count: 0, size: 0 };
    entry.count++;
    entry.size += snapshot.nodes[i + sizeAt]!;
    byName.set(key, entry);
  }

  // The JIT's share: edges by name (hidden/element edges carry an index, not a name).
  const [edgeTypeAt, edgeNameAt, edgeToAt] = ['type', 'name_or_index', 'to_node'].map((f) => meta.edge_fields.indexOf(f)) as [number, number, number];
  const edgeTypes = meta.edge_types[0];
  function* edgesOf(node: number): Generator<{ name: string; to: number }> {
    for (let e = firstEdge[node]!; e < firstEdge[node + 1]!; e += edgeWidth) {
      const t = edgeTypes[snapshot.edges[e + edgeTypeAt]!];
      const name = t === 'element' || t === 'hidden' ? '' : snapshot.strings[snapshot.edges[e + edgeNameAt]!]!;
      yield { name, to: snapshot.edges[e + edgeToAt]! / width };
    }
  }
  const id = (node: number) => snapshot.nodes[node * width + idAt]!;
  const size = (node: number) => snapshot.nodes[node * width + sizeAt]!;
  const jit: Jit = { codeByFunction: new Map(), functions: new Set(), dependencyBytes: 0 };
  const owners = new Map<number, number>(); // Code node -> its function's id
  const counted = new Set<number>();
  for (let n = 0; n < nodeCount; n++) {
    const name = nameOf(n);
    if (name.startsWith('system / SharedFunctionInfo') && !name.startsWith('system / SharedFunctionInfoWrapper')) {
      jit.functions.add(id(n));
      for (const e of edgesOf(n)) if (e.name === 'trusted_function_data' && nameOf(e.to) === 'system / Code') owners.set(e.to, id(n)); // baseline code
    } else if (types[snapshot.nodes[n * width + typeAt]!] === 'closure') {
      let code = -1;
      let shared = -1;
      for (const e of edgesOf(n)) {
        if (e.name === 'code' && nameOf(e.to) === 'system / Code') code = e.to;
        else if (e.name === 'shared') shared = e.to;
      }
      if (code >= 0 && shared >= 0 && !owners.has(code)) owners.set(code, id(shared)); // optimized code
    } else if (name === 'system / WeakArrayList' || name === 'system / Map' || name === 'system / PropertyCell' || name.startsWith('system / NativeContext')) {
      for (const e of edgesOf(n)) if ((e.name === 'dependent_code' || e.name === 'retained_maps') && !counted.has(e.to)) {
        counted.add(e.to);
        jit.dependencyBytes += size(e.to);
      }
    }
  }
  for (const [code, fn] of owners) {
    let bytes = size(code);
    counted.add(code);
    const stack = [code];
    while (stack.length) {
      for (const e of edgesOf(stack.pop()!)) {
        if (counted.has(e.to) || !MACHINE_CODE_PARTS.has(nameOf(e.to))) continue;
        counted.add(e.to);
        bytes += size(e.to);
        stack.push(e.to);
      }
    }
    jit.codeByFunction.set(fn, (jit.codeByFunction.get(fn) ?? 0) + bytes);
  }
  return { byName, jit };
}

/**
 * How much of the growth from `before` to `after` is the JIT warming up (bytes): machine code of
 * functions that existed at `before`, and dependency lists. Also the machine code of functions
 * that are new since `before` (kept in the measurement: new functions are what a leak of code is).
 */
function jitGrowth(before: Jit, after: Jit): { warmUp: number; newFunctions: number } {
  const total = (jit: Jit, keep: (fn: number) => boolean) => [...jit.codeByFunction].reduce((sum, [fn, bytes]) => (keep(fn) ? sum + bytes : sum), 0);
  return {
    warmUp: total(after, (fn) => before.functions.has(fn)) - total(before, () => true) + after.dependencyBytes - before.dependencyBytes,
    newFunctions: total(after, (fn) => !before.functions.has(fn)),
  };
}

function growth(before: Census, after: Census, top = 30): string[] {
  const rows = [...after].map(([name, a]) => {
    const b = before.get(name) ?? { count: 0, size: 0 };
    return { name, count: a.count - b.count, size: a.size - b.size };
  });
  return rows
    .filter((r) => r.size > 0 || r.count > 0)
    .sort((x, y) => y.size - x.size)
    .slice(0, top)
    .map((r) => `${String(r.size).padStart(9)} B ${String(r.count).padStart(7)}  ${r.name}`);
}

// ---- the run ----------------------------------------------------------------------------------
let result: Record<string, unknown>;
try {
  await api.setDefaultScene(rotation[0]!);
  const cdp = await browser.open(`${server.base}/app`);
  await cdp.send('HeapProfiler.enable');
  await new Promise((r) => setTimeout(r, 500)); // the tab navigates
  if (!(await waitFor(cdp, `document.querySelector('.wall[data-scene-id="${rotation[0]}"]')`, 30_000))) throw new Error('the wall did not show its first scene');

  const samples: Sample[] = [];
  let stuck = 0;
  let atFirst: Awaited<ReturnType<typeof census>> | null = null;
  const baseline = Math.min(100, CHANGES);
  const started = Date.now();
  for (let i = 1; i <= CHANGES; i++) {
    const target = rotation[i % rotation.length]!;
    if (target === world.scenes.evening.id) await freshCameras(target);
    await api.setDefaultScene(target);
    // Shown, and every shown tile has a video with a decoded frame (or an iframe/failure panel).
    const done = await waitFor(cdp, settledOn(target), 15_000);
    if (!done) stuck++;
    if (CHECKPOINTS.includes(i)) {
      const s = await sample(cdp, i);
      samples.push(s);
      log(`${i} changes (${Math.round((Date.now() - started) / 1000)} s): heap ${s.heap_kb} KB, ${s.dom_nodes} nodes, ${s.js_event_listeners} listeners, videos ${s.video_elements} (${s.videos_in_dom} in DOM, ${s.direct_tiles} tiles), MediaSource ${s.media_sources}, hls ${s.hls_instances}`);
      if (i === baseline) atFirst = await census(cdp);
    } else if (i % 50 === 0) log(`${i} changes`);
  }
  const atLast = await census(cdp);
  if (atFirst) log(`heap snapshot growth, ${baseline} → ${CHANGES} changes (bytes, count, constructor):\n${growth(atFirst.byName, atLast.byName).join('\n')}`);
  /**
   * Where the snapshot grew (KB): compiled code, V8's own bookkeeping (`system / …`, shapes),
   * and everything else — the page's objects and the browser's; a leak of the wall shows there.
   */
  const snapshotGrowth = (before: Census, after: Census) => {
    const sum = { code: 0, v8_internal: 0, other: 0 };
    for (const [name, a] of after) {
      const delta = a.size - (before.get(name)?.size ?? 0);
      if (name === '(code)') sum.code += delta;
      else if (name.startsWith('system / ') || name === '(object shape)' || name === '(hidden)') sum.v8_internal += delta;
      else sum.other += delta;
    }
    for (const [name, b] of before) if (!after.has(name)) sum.other -= b.size;
    return { code: kb(sum.code), v8_internal: kb(sum.v8_internal), other: kb(sum.other) };
  };
  cdp.close();

  const at100 = samples.find((x) => x.changes === baseline)!;
  const last = samples.at(-1)!;
  const growthPct = pct(at100.heap_kb, last.heap_kb);
  // The goal leaves out the JIT warming up on functions the wall already had (see Jit): a wall
  // holds that code too, but it is bounded by the functions there are, not by the changes made.
  const jit = atFirst ? jitGrowth(atFirst.jit, atLast.jit) : { warmUp: 0, newFunctions: 0 };
  const growthWithoutJitPct = pct(at100.heap_kb, last.heap_kb - kb(jit.warmUp));
  const N = last.changes;
  result = {
    changes: CHANGES,
    stuck_changes: stuck,
    heap_100: at100.heap_kb,
    [`heap_${N}`]: last.heap_kb,
    growth_pct: growthPct,
    /** growth_pct without the machine code V8 added to functions that existed at 100 changes. */
    growth_without_jit_pct: growthWithoutJitPct,
    jit_warm_up_kb: kb(jit.warmUp),
    /** Machine code of functions born after 100 changes (counted in the growth: new code is a leak's sign). */
    new_function_code_kb: kb(jit.newFunctions),
    /** Heap snapshots at 100 and at the end: what the growth is made of (KB). */
    snapshot_growth_kb: atFirst ? snapshotGrowth(atFirst.byName, atLast.byName) : null,
    nodes_100: at100.dom_nodes,
    [`nodes_${N}`]: last.dom_nodes,
    listeners_100: at100.js_event_listeners,
    [`listeners_${N}`]: last.js_event_listeners,
    videos_100: at100.video_elements,
    [`videos_${N}`]: last.video_elements,
    media_sources_100: at100.media_sources,
    [`media_sources_${N}`]: last.media_sources,
    hls_100: at100.hls_instances,
    [`hls_${N}`]: last.hls_instances,
    unit: 'heap in KB',
    samples,
    goals: {
      heap_growth_le_10pct: growthWithoutJitPct <= 10,
      // What is alive is what is shown: no detached <video>, MediaSource or hls.js instance left behind.
      no_leaked_players: samples.every((x) => x.video_elements === x.videos_in_dom && x.hls_instances <= x.hls_tiles && x.media_sources <= x.hls_tiles),
    },
    machine: { cpus: os.cpus().length },
  };
} finally {
  await browser.close();
  await server.stop();
  await media.close();
}
console.log(JSON.stringify(result));
