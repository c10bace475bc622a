/** Starts `src/server.ts` in its own process on a throw-away embedded database, for benchmarks. */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../src/embedded-postgres.ts';

export interface ServerProcess {
  base: string;
  port: number;
  dataDir: string;
  pid: number;
  stop(): Promise<void>;
  kill(): Promise<void>;
}

const root = path.resolve(import.meta.dirname, '..');

export async function startServerProcess(options: { env?: NodeJS.ProcessEnv; dataDir?: string; port?: number } = {}): Promise<ServerProcess> {
  const dataDir = options.dataDir ?? (await mkdtemp(path.join(os.tmpdir(), 'nw-bench-')));
  const port = options.port ?? (await freePort());
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: 'warn', ...options.env };
  if (!options.env?.DATABASE_URL) delete env.DATABASE_URL;
  const child = spawn(process.execPath, ['src/server.ts'], { cwd: root, env, stdio: ['ignore', 'inherit', 'inherit'] });
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  while (!(await fetch(`${base}/readyz`).then((r) => r.ok, () => false))) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    if (Date.now() > deadline) throw new Error('server did not become ready');
    await new Promise((r) => setTimeout(r, 100));
  }
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    base,
    port,
    dataDir,
    pid: child.pid!,
    async stop() {
      child.kill('SIGTERM');
      await exited;
      if (!options.dataDir) await rm(dataDir, { recursive: true, force: true });
    },
    async kill() {
      child.kill('SIGKILL');
      await exited;
    },
  };
}
