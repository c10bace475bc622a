/** The real Nature Wall server for end-to-end tests: its own process, a throw-away database. */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

export const ROOT = path.resolve(import.meta.dirname, '../../..');

export interface NatureWallProcess {
  base: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export async function startNatureWall(env: NodeJS.ProcessEnv = {}): Promise<NatureWallProcess> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'nw-e2e-'));
  const port = env.PORT ? Number(env.PORT) : await freePort();
  const childEnv: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    BACKUP_DIR: path.join(dataDir, 'backups'),
    LOG_LEVEL: 'warn',
    WEB_DIST: path.join(ROOT, 'dist/web'),
    SEED_DEMO: 'false',
    // The specs' shared server is a closed-LAN venue; screens.spec starts its own with approval on.
    SCREEN_APPROVAL: 'off',
    ...env,
  };
  delete childEnv.DATABASE_URL;
  const child = spawn(process.execPath, ['src/server.ts'], { cwd: ROOT, env: childEnv, stdio: ['ignore', 'inherit', 'inherit'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 90_000;
  while (!(await fetch(`${base}/readyz`).then((r) => r.ok, () => false))) {
    if (child.exitCode !== null) throw new Error(`Nature Wall exited with ${child.exitCode}`);
    if (Date.now() > deadline) throw new Error('Nature Wall did not become ready');
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    base,
    child,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
