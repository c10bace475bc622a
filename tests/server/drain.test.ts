/**
 * A node stops the way a deploy needs it to: the real entry point (`node src/server.ts` on its
 * embedded database), stopped as Ctrl-C does at a terminal — SIGINT to its whole process
 * group. It answers /readyz 503 while a request in flight still completes, tells its screens
 * to reconnect elsewhere (they leave before it goes), exits 0 within SHUTDOWN_GRACE_SECONDS,
 * and its log has no PostgreSQL FATAL line and no DatabaseError.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../../src/free-port.ts';
import type { WallState } from '../../src/shared/events.ts';
import { openScreen } from '../support/screens.ts';

const root = path.resolve(import.meta.dirname, '../..');
const dirs: string[] = [];
const children: ChildProcess[] = [];
const servers: http.Server[] = [];

afterAll(async () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  for (const server of servers) server.close();
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

/** A page on 127.0.0.1 that holds its answer until released: a request that is still working. */
async function heldPage() {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let reached!: () => void;
  const asked = new Promise<void>((resolve) => (reached = resolve));
  const server = http.createServer((req, res) => {
    reached();
    void released.then(() =>
      res.writeHead(200, { 'content-type': 'text/html' }).end('<html><body><video><source src="/falls.mp4" type="video/mp4"></video></body></html>'),
    );
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/held`, asked, release };
}

async function startServer(env: NodeJS.ProcessEnv) {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'nw-drain-'));
  dirs.push(dataDir);
  const port = await freePort();
  const childEnv: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: 'info', WEB_DIST: path.join(dataDir, 'no-web'), ...env };
  delete childEnv.DATABASE_URL;
  // Its own process group, as a shell gives a foreground job: a signal to the group reaches
  // everything started in it, as Ctrl-C does.
  const child = spawn(process.execPath, ['src/server.ts'], { cwd: root, env: childEnv, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  children.push(child);
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  while (!(await fetch(`${base}/readyz`).then((r) => r.ok, () => false))) {
    if (child.exitCode !== null) throw new Error(`server exited early (${child.exitCode}):\n${output}`);
    if (Date.now() > deadline) throw new Error(`server not ready in time:\n${output}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return { base, child, exited, output: () => output };
}

describe('Ctrl-C on npm start (SIGINT to the process group)', () => {
  it('drains: /readyz 503 while a request in flight completes, screens leave first, exit 0, no FATAL or DatabaseError', async () => {
    const page = await heldPage();
    const node = await startServer({ FETCH_ALLOW_HOSTS: '127.0.0.1', SHUTDOWN_GRACE_SECONDS: '20' });

    const screen = openScreen(node.base, { kind: 'wall', name: 'drained wall' });
    const notices: number[] = [];
    const events: string[] = [];
    screen.client.socket.on('server:draining', ({ reconnectWithinMs }) => {
      notices.push(reconnectWithinMs);
      events.push('notice');
    });
    screen.client.socket.on('disconnect', () => events.push('disconnected'));
    await screen.waitFor((s) => (s as WallState | null)?.kind === 'wall');

    // A request in flight: the server is fetching the held page for it.
    const slow = fetch(`${node.base}/api/discovery/extract`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ url: page.url }),
    });
    await page.asked;

    process.kill(-node.child.pid!, 'SIGINT');
    const exited = node.exited.then((code) => {
      events.push('exited');
      return code;
    });

    // Not ready from the first moment, while it still answers.
    let ready = await fetch(`${node.base}/readyz`);
    while (ready.status === 200) ready = await fetch(`${node.base}/readyz`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toMatchObject({ status: 'draining' });
    expect(ready.headers.get('connection')).toBe('close');

    page.release();
    const answer = await slow;
    expect(answer.status).toBe(200);
    expect(((await answer.json()) as { streams: unknown[] }).streams).toHaveLength(1);

    expect(await exited).toBe(0); // past SHUTDOWN_GRACE_SECONDS the process exits 1
    screen.close();
    // The screen was told, and left on its own before the node went away.
    expect(notices).toHaveLength(1);
    expect(notices[0]).toBeGreaterThan(0);
    expect(events.slice(0, 3)).toEqual(['notice', 'disconnected', 'exited']);

    const log = node.output();
    expect(log).toContain('stopped cleanly');
    expect(log).not.toMatch(/FATAL|DatabaseError|terminating connection/);
  }, 90_000);
});
