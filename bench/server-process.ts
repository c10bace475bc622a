/**
 * Benchmark servers in their own processes: Nature Wall (`src/server.ts` on a throw-away
 * embedded database) or any other script. Started with --expose-gc and the memory probe, so
 * the benchmark can ask for heap and RSS after a full GC over the IPC channel.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../src/free-port.ts';

export interface Memory {
  heapUsed: number;
  rss: number;
}

export interface LoopDelay {
  loop_p99_ms: number;
  loop_max_ms: number;
}

export interface ServerProcess {
  base: string;
  port: number;
  dataDir: string;
  child: ChildProcess;
  /** Heap and RSS after a full GC. */
  memory(): Promise<Memory>;
  /** How late its event loop ran since the last call (p99 and longest, ms; bench/memory-probe.ts). */
  loop(): Promise<LoopDelay>;
  /** Begins (`end` false) or ends and writes its profiles (NW_BENCH_CPU_PROFILE / NW_BENCH_HEAP_PROFILE; bench/memory-probe.ts). */
  profile(end?: boolean): Promise<void>;
  /** SIGTERM, wait, and remove a throw-away data folder. */
  stop(): Promise<void>;
  /** SIGKILL: the crash a restart must survive. */
  kill(): Promise<void>;
}

const root = path.resolve(import.meta.dirname, '..');

/** Benchmarks write through the API as an admin, with this ADMIN_API_TOKEN. */
export const BENCH_TOKEN = 'bench-admin-token-0123456789abcdef';
export const benchAuth = { authorization: `Bearer ${BENCH_TOKEN}` };

type StartOptions = { script?: string; env?: NodeJS.ProcessEnv; dataDir?: string; port?: number; keepDataDir?: boolean };

/** Thrown when the server exited before it was ready. */
class ExitedEarly extends Error {}

/**
 * A port picked free can be taken before the server binds it (its own embedded PostgreSQL picks
 * one too): a server that exits before it is ready on a port picked here is started again on
 * another, up to three times; a port the caller chose is never retried.
 */
export async function startServerProcess(options: StartOptions = {}): Promise<ServerProcess> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnce(options);
    } catch (error) {
      if (!(error instanceof ExitedEarly) || options.port !== undefined || attempt >= 3) throw error;
      console.error(`${error.message}; starting it again on another port`);
    }
  }
}

async function startOnce(options: StartOptions): Promise<ServerProcess> {
  const dataDir = options.dataDir ?? (await mkdtemp(path.join(os.tmpdir(), 'nw-bench-')));
  const port = options.port ?? (await freePort());
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: dataDir,
    BACKUP_DIR: path.join(dataDir, 'backups'),
    PORT: String(port),
    LOG_LEVEL: 'warn',
    ADMIN_API_TOKEN: BENCH_TOKEN,
    // Benchmarks compare with figures taken before approval shipped; bench/registration.ts pairs its screens.
    SCREEN_APPROVAL: 'off',
    ...options.env,
  };
  if (!options.env?.DATABASE_URL) delete env.DATABASE_URL;
  const child = spawn(
    process.execPath,
    ['--expose-gc', '--import', './bench/memory-probe.ts', options.script ?? 'src/server.ts'],
    { cwd: root, env, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] },
  );
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  while (!(await fetch(`${base}/readyz`).then((r) => r.ok, () => false))) {
    if (child.exitCode !== null) {
      if (!options.dataDir && !options.keepDataDir) await rm(dataDir, { recursive: true, force: true });
      throw new ExitedEarly(`server exited with ${child.exitCode} before it was ready`);
    }
    if (Date.now() > deadline) throw new Error('server did not become ready');
    await new Promise((r) => setTimeout(r, 50));
  }
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    base,
    port,
    dataDir,
    child,
    memory: () =>
      new Promise<Memory>((resolve) => {
        child.once('message', (message) => resolve(message as Memory));
        child.send('memory');
      }),
    loop: () =>
      new Promise<LoopDelay>((resolve) => {
        child.once('message', (message) => resolve(message as LoopDelay));
        child.send('loop');
      }),
    profile: (end = false) =>
      new Promise<void>((resolve) => {
        child.once('message', () => resolve());
        child.send(end ? 'profile-end' : 'profile');
      }),
    async stop() {
      child.kill('SIGTERM');
      await exited;
      if (!options.dataDir && !options.keepDataDir) await rm(dataDir, { recursive: true, force: true });
    },
    async kill() {
      child.kill('SIGKILL');
      await exited;
    },
  };
}
