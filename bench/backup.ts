/**
 * `npm run bench:backup`: what a backup costs the screens, and how long a big venue takes to come
 * back from one (issue 42's goals: a backup of the demo database in seconds while 200 screens stay
 * connected — no 5xx, no push delayed past its flip instant —; a 10,000-stream database restored
 * onto a fresh data folder and answering within 60 s).
 *
 * 1. One Nature Wall process with its demo, `--screens` walls (each with a device id) connected.
 *    `--switches` default-scene changes, one every 500 ms, first with no backup running (the
 *    baseline, the same run), then while backups are taken back to back from the console's
 *    endpoint. For each change: the REST answer's status, and for every wall when its push
 *    arrived against the change's flip instant (`at`, server time; both processes read this
 *    machine's clock). A push that arrives after its instant is late: the screen flips late.
 *    A run where a wall misses a push, or a change gets no instant, is refused (exit 1).
 * 2. 10,000 streams are added to its database, a backup is taken, the server stops, and the
 *    backup is restored (`npm run restore`) onto a fresh data folder, the server started on it,
 *    and timed until it answers GET /api/streams with every stream.
 *
 * The last line is one JSON object.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { runningEmbeddedUrl } from '../src/embedded-postgres.ts';
import type { BackupDto } from '../src/shared/api/backups.ts';
import type { SceneStatePayload } from '../src/shared/events.ts';
import { connectScreen, type ScreenClient } from '../src/shared/screen-client.ts';
import { benchArgs } from './args.ts';
import { benchAuth, startServerProcess } from './server-process.ts';
import { percentile } from './stats.ts';

const { screens: SCREENS, switches: SWITCHES, streams: STREAMS } = benchArgs({ screens: 200, switches: 20, streams: 10_000 });
const root = path.resolve(import.meta.dirname, '..');

interface Wall {
  client: ScreenClient;
  /** When each push arrived (Date.now()), by its version. */
  arrived: Map<number, number>;
  ready: boolean;
}

function openWall(base: string, n: number): Wall {
  const wall: Wall = { client: undefined as unknown as ScreenClient, arrived: new Map(), ready: false };
  wall.client = connectScreen({
    url: base,
    registration: { kind: 'wall', name: `Backup bench ${n}`, device: `bench-backup-${String(n).padStart(4, '0')}` },
    socketOptions: { transports: ['websocket'], forceNew: true },
    onMessage: (message) => {
      if (message.type === 'state') wall.ready = true;
      if (message.type === 'scene') wall.arrived.set(message.payload.version, Date.now());
    },
  });
  return wall;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function json<T>(base: string, method: string, route: string, body?: unknown): Promise<{ status: number; body: T }> {
  const res = await fetch(`${base}/api${route}`, { method, headers: { ...benchAuth, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: res.status, body: (await res.json().catch(() => null)) as T };
}

/** Changes made so far (each goes to the next scene: never to the one shown, which would change nothing). */
let made = 0;

/** `count` default-scene changes, one every 500 ms; each push's lead over its flip instant, per wall. */
async function switches(base: string, walls: Wall[], scenes: number[], count: number) {
  const statuses: number[] = [];
  const leads: number[] = [];
  let late = 0;
  let missing = 0;
  // The push of a change is known by its version and instant: a probe wall records both.
  const instants = new Map<number, number>();
  const probe = connectScreen({
    url: base,
    registration: { kind: 'wall', name: 'probe' },
    socketOptions: { transports: ['websocket'], forceNew: true },
    onMessage: (message) => {
      if (message.type === 'scene' && (message.payload as SceneStatePayload).at !== undefined) instants.set(message.payload.version, message.payload.at!);
    },
  });
  await sleep(500);
  for (let i = 0; i < count; i++) {
    const before = new Set(instants.keys());
    const answer = await json(base, 'PUT', '/config/default-scene', { scene_id: scenes[made++ % scenes.length] });
    statuses.push(answer.status);
    // Its push: waited for up to 5 s (a push that takes longer is refused, not timed).
    let version: number | undefined;
    for (const until = Date.now() + 5_000; version === undefined && Date.now() < until; await sleep(10)) version = [...instants.keys()].find((v) => !before.has(v));
    if (version === undefined) throw new Error(`change ${i} (answered ${answer.status}: ${JSON.stringify(answer.body)}) brought no push with an instant within 5 s: refused`);
    await sleep(500);
    const at = instants.get(version)!;
    for (const wall of walls) {
      const got = wall.arrived.get(version);
      if (got === undefined) {
        missing++;
        continue;
      }
      leads.push(at - got);
      if (got > at) late++;
    }
  }
  probe.close();
  if (missing > 0) throw new Error(`${missing} pushes never reached their wall: refused`);
  return {
    changes: count,
    status_5xx: statuses.filter((s) => s >= 500).length,
    status_other: statuses.filter((s) => s !== 200 && s < 500).length,
    pushes: leads.length,
    late,
    lead_before_flip_ms: { p1: Math.round(percentile(leads, 1)), p50: Math.round(percentile(leads, 50)), min: Math.round(Math.min(...leads)) },
  };
}

function run(script: string, args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [script, ...args], { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (out += c.toString()));
    child.on('exit', (code) => resolve({ code, out }));
  });
}

const server = await startServerProcess({ keepDataDir: true });
const backups = path.join(server.dataDir, 'backups');
let result: Record<string, unknown> | undefined;
let restoredDir: string | undefined;
try {
  const scenes = (await json<{ id: number }[]>(server.base, 'GET', '/scenes')).body.map((s) => s.id);
  const walls: Wall[] = [];
  for (let i = 0; i < SCREENS; i++) walls.push(openWall(server.base, i));
  const deadline = Date.now() + 60_000;
  while (!walls.every((w) => w.ready)) {
    if (Date.now() > deadline) throw new Error('walls did not register');
    await sleep(20);
  }
  console.error(`${SCREENS} walls connected; baseline changes`);
  await switches(server.base, walls, scenes, 3); // warm-up
  const baseline = await switches(server.base, walls, scenes, SWITCHES);

  console.error('changes while backups are taken');
  // Backups back to back while the same changes are made.
  const taken: { ms: number; status: number; ok: boolean | null; bytes: number | null }[] = [];
  let stop = false;
  const backingUp = (async () => {
    while (!stop) {
      const started = performance.now();
      const answer = await json<BackupDto>(server.base, 'POST', '/backups');
      taken.push({ ms: performance.now() - started, status: answer.status, ok: answer.body?.ok ?? null, bytes: answer.body?.bytes ?? null });
    }
  })();
  let during;
  try {
    during = await switches(server.base, walls, scenes, SWITCHES);
  } finally {
    stop = true;
    await backingUp;
  }
  for (const wall of walls) wall.client.close();
  if (taken.some((b) => b.status !== 201 || !b.ok)) throw new Error(`a backup failed: ${JSON.stringify(taken)}`);

  console.error(`${STREAMS} streams added, backed up, restored`);
  // A venue of STREAMS streams: added, backed up, restored onto a fresh data folder, served.
  const url = await runningEmbeddedUrl(server.dataDir);
  if (!url) throw new Error('the embedded database is not running');
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  await db.query(
    `insert into streams (name, url, normalized_url, category, quality, active, health)
      select 'Bench cam ' || n, 'https://cams.example.org/' || n || '/index.m3u8', 'cams.example.org/' || n || '/index.m3u8', 'nature', 'hd', true, 'unknown'
      from generate_series(1, $1) as n`,
    [STREAMS],
  );
  const total = Number((await db.query<{ n: string }>('select count(*)::text as n from streams')).rows[0]!.n);
  await db.end();
  const big = await json<BackupDto>(server.base, 'POST', '/backups');
  if (big.status !== 201 || !big.body.ok) throw new Error(`the big backup failed: ${JSON.stringify(big.body)}`);
  await server.stop();

  restoredDir = await mkdtemp(path.join(os.tmpdir(), 'nw-bench-restored-'));
  const began = performance.now();
  const restored = await run('scripts/restore.ts', [path.join(backups, big.body.file)], { DATA_DIR: restoredDir, DATABASE_URL: '' });
  if (restored.code !== 0) throw new Error(`restore failed: ${restored.out}`);
  const restoredAt = performance.now();
  const again = await startServerProcess({ dataDir: restoredDir, keepDataDir: true, env: { SEED_DEMO: 'false' } });
  let answered: number;
  try {
    const list = await fetch(`${again.base}/api/streams`);
    const streams = (await list.json()) as unknown[];
    answered = performance.now();
    if (list.status !== 200 || streams.length !== total) throw new Error(`the restored server answered ${list.status} with ${streams.length} of ${total} streams`);
  } finally {
    await again.stop();
  }

  result = {
    screens: SCREENS,
    switches: SWITCHES,
    baseline,
    during_backups: during,
    backups_during: taken.length,
    backup_seconds: { p50: Number((percentile(taken.map((b) => b.ms), 50) / 1000).toFixed(2)), max: Number((Math.max(...taken.map((b) => b.ms)) / 1000).toFixed(2)) },
    backup_kb: Math.round((taken[0]!.bytes ?? 0) / 1024),
    big_venue: {
      streams: total,
      backup_mb: Number(((big.body.bytes ?? 0) / 1024 ** 2).toFixed(2)),
      restore_seconds: Number(((restoredAt - began) / 1000).toFixed(1)),
      first_answer_seconds: Number(((answered - began) / 1000).toFixed(1)),
    },
    goals: { status_5xx: 0, late: 0, backup_seconds: '< 10 (demo)', first_answer_seconds: '<= 60 (10,000 streams)' },
  };
} finally {
  await server.stop().catch(() => undefined);
  await rm(server.dataDir, { recursive: true, force: true });
  if (restoredDir) await rm(restoredDir, { recursive: true, force: true });
}
console.log(JSON.stringify(result));
