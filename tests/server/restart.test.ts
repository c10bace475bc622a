/**
 * The real entry point, as `npm start` runs it: no DATABASE_URL, so it starts its own
 * PostgreSQL under DATA_DIR. Data survives a SIGTERM and a restart; two instances with their
 * own DATA_DIR run side by side.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../../src/free-port.ts';
import { createTestDatabase } from '../support/db.ts';

const root = path.resolve(import.meta.dirname, '../..');
const TOKEN = 'restart-test-token-0123456789abcdef';
const writeHeaders = { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` };
const dirs: string[] = [];
const children: ChildProcess[] = [];

afterAll(async () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

async function startServer(dataDir: string, extraEnv: NodeJS.ProcessEnv = {}) {
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: dataDir,
    PORT: String(port),
    LOG_LEVEL: 'info',
    WEB_DIST: path.join(dataDir, 'no-web'),
    ADMIN_API_TOKEN: TOKEN,
  };
  delete env.DATABASE_URL;
  Object.assign(env, extraEnv);
  const child = spawn(process.execPath, ['src/server.ts'], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited early (${child.exitCode}):\n${output}`);
    const ready = await fetch(`${base}/readyz`).then((r) => r.ok, () => false);
    if (ready) break;
    if (Date.now() > deadline) throw new Error(`server not ready in time:\n${output}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    base,
    output: () => output,
    async stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<number | null> {
      const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
      child.kill(signal);
      return exited;
    },
  };
}

async function newDataDir() {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'nw-server-'));
  dirs.push(dir);
  return dir;
}

describe('npm start on the embedded database', () => {
  it('keeps every row across a SIGTERM and a restart', async () => {
    const dataDir = await newDataDir();
    const first = await startServer(dataDir);
    const created = await fetch(`${first.base}/api/streams`, {
      method: 'POST',
      headers: writeHeaders,
      body: JSON.stringify({ name: 'Survivor cam', url: 'https://example.org/survivor.m3u8', category: 'ocean' }),
    });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: number };
    expect(await first.stop()).toBe(0);
    expect(first.output()).toContain('stopped cleanly');
    expect(first.output()).toMatch(/First start: created admin 'admin' with password \S{20,}/); // zero-config login
    expect(existsSync(path.join(dataDir, 'pg', 'postmaster.pid'))).toBe(false); // the cluster shut down

    const second = await startServer(dataDir);
    const res = await fetch(`${second.base}/api/streams/${id}`);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ name: 'Survivor cam', category: 'ocean' });
    const streams = (await (await fetch(`${second.base}/api/streams`)).json()) as unknown[];
    expect(streams).toHaveLength(20); // 19 demo cams, seeded once, plus ours
    expect(await second.stop()).toBe(0);
  });

  it('recovers after being killed with SIGKILL: the orphaned database is stopped and reused', async () => {
    const dataDir = await newDataDir();
    const first = await startServer(dataDir);
    const created = await fetch(`${first.base}/api/scenes`, {
      method: 'POST',
      headers: writeHeaders,
      body: JSON.stringify({ name: 'Survives a crash' }),
    });
    expect(created.status).toBe(201);
    await first.stop('SIGKILL'); // PostgreSQL keeps running, orphaned, holding DATA_DIR
    expect(existsSync(path.join(dataDir, 'pg', 'postmaster.pid'))).toBe(true);

    const second = await startServer(dataDir);
    expect(second.output()).toContain('stopping the embedded PostgreSQL a previous run left behind');
    expect((await fetch(`${second.base}/api/scenes/survives-a-crash`)).status).toBe(200);
    expect(await second.stop()).toBe(0);
  });

  it('refuses to share a DATA_DIR with a running server, with a clear message', async () => {
    const dataDir = await newDataDir();
    const first = await startServer(dataDir);
    try {
      await expect(startServer(dataDir)).rejects.toThrow(/is in use by another running server/);
      expect((await fetch(`${first.base}/readyz`)).status).toBe(200);
    } finally {
      expect(await first.stop()).toBe(0);
    }
  });

  it('uses DATABASE_URL when set, migrates it, and starts no database of its own', async () => {
    const db = await createTestDatabase();
    const dataDir = path.join(await newDataDir(), 'unused');
    try {
      const server = await startServer(dataDir, { DATABASE_URL: db.url });
      const scenes = (await (await fetch(`${server.base}/api/scenes`)).json()) as { name: string }[];
      expect(scenes.map((s) => s.name)).toContain('Default');
      expect(existsSync(path.join(dataDir, 'pg'))).toBe(false);
      expect(server.output()).toContain('"database":"DATABASE_URL"');
      expect(await server.stop()).toBe(0);
    } finally {
      await db.drop();
    }
  });

  it('runs two instances with their own DATA_DIR side by side', async () => {
    const [a, b] = await Promise.all([newDataDir().then(startServer), newDataDir().then(startServer)]);
    try {
      const [sa, sb] = await Promise.all([a, b].map(async (s) => (await fetch(`${s.base}/api/config/default-scene`)).json()));
      expect(sa).toEqual({ scene_id: 1 });
      expect(sb).toEqual({ scene_id: 1 });
    } finally {
      expect(await Promise.all([a.stop(), b.stop()])).toEqual([0, 0]);
    }
  });
});
