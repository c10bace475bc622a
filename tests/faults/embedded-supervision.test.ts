/**
 * `npm start` owns its PostgreSQL: when that process is killed, the server logs why, starts it
 * again on the same DATA_DIR, answers 503 meanwhile, and is ready again by itself.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { adminHeaders, eventually, startNode, type ServerNode } from './support.ts';

let node: ServerNode | undefined;
afterAll(async () => node?.stop(), 60_000);

async function postmasterPid(dataDir: string): Promise<number> {
  return Number((await readFile(path.join(dataDir, 'pg', 'postmaster.pid'), 'utf8')).split('\n')[0]);
}

describe('the embedded database under npm start', () => {
  it('is restarted when its postgres process dies, and the server carries on', async () => {
    node = await startNode({});
    const created = await fetch(`${node.base}/api/streams`, {
      method: 'POST',
      headers: adminHeaders,
      body: JSON.stringify({ name: 'Before the crash', url: 'https://example.org/crash.m3u8', category: 'volcano' }),
    });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: number };

    const pid = await postmasterPid(node.dataDir);
    process.kill(pid, 'SIGKILL');
    await eventually('the outage is seen (503)', async () => (await fetch(`${node!.base}/readyz`)).status === 503, 15_000, 20);
    const during = await fetch(`${node.base}/api/streams/${id}`, { headers: adminHeaders });
    // Either still down (503) or already back (200): never a 500.
    expect([200, 503]).toContain(during.status);

    await eventually('ready again by itself', async () => (await fetch(`${node!.base}/readyz`)).ok, 60_000, 200);
    expect(node.exitCode()).toBeNull();
    expect(await postmasterPid(node.dataDir)).not.toBe(pid);
    const after = await fetch(`${node.base}/api/streams/${id}`, { headers: adminHeaders });
    expect(after.status).toBe(200);
    expect(((await after.json()) as { name: string }).name).toBe('Before the crash');
    expect(node.output()).toContain('embedded PostgreSQL exited unexpectedly');
    expect(node.output()).toContain('embedded PostgreSQL restarted');
  }, 150_000);
});
