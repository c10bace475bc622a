/**
 * SSRF against the real targets, safely: the app runs in a network namespace with only a
 * loopback interface (`unshare -n`, then `ip link set lo up`), so private, link-local, metadata
 * and embedded-IPv4 literals can be sent with the guarantee that no packet leaves the machine.
 * There a refusal by policy (400 "URL is not allowed") and an attempted connection (which fails
 * locally: 422) look different, and a canary on the namespace's loopback counts every
 * connection. The database is the one thing that crosses: through a unix socket this test
 * forwards to the run's PostgreSQL.
 *
 * A machine that cannot create a namespace skips this file, and says so in the test's name.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';

const root = path.resolve(import.meta.dirname, '../..');

/** Why a namespace cannot be made here, or null when it can. */
function namespaceProblem(): string | null {
  const probe = spawnSync('unshare', ['-n', 'sh', '-c', 'ip link set lo up && ip -o addr show lo'], { encoding: 'utf8' });
  if (probe.error) return `unshare/ip not available (${probe.error.message})`;
  if (probe.status !== 0) return `unshare -n failed: ${(probe.stderr || probe.stdout).trim().split('\n')[0]}`;
  return null;
}

const problem = namespaceProblem();
const title = problem ? `SSRF in a loopback-only network namespace (SKIPPED: ${problem})` : 'SSRF in a loopback-only network namespace';
if (problem) console.warn(`ssrf-namespace: skipped — ${problem}`);

interface Outcome {
  url: string;
  endpoint: string;
  status: number;
  error: string | null;
}
interface ChildReport {
  results: Outcome[];
  named: Outcome[];
  control: { status: number; error: string | null };
  canaryHits: number;
}

describe.skipIf(problem !== null)(title, () => {
  let db: TestDatabase;
  let socketDir: string;
  let proxy: net.Server;
  let report: ChildReport;

  beforeAll(async () => {
    db = await createTestDatabase();
    const target = new URL(db.url);
    socketDir = await mkdtemp(path.join(os.tmpdir(), 'nw-ns-'));
    // The namespace has no route to the database's TCP port; a unix socket crosses it.
    proxy = net.createServer((client) => {
      const upstream = net.connect(Number(target.port || 5432), target.hostname);
      client.pipe(upstream).pipe(client);
      const end = () => (client.destroy(), upstream.destroy());
      client.on('error', end);
      upstream.on('error', end);
    });
    await new Promise<void>((resolve) => proxy.listen(path.join(socketDir, '.s.PGSQL.5432'), resolve));
    // A percent-encoded socket folder as the host: what both pg (pg-boss) and MikroORM read as a unix socket.
    const inside = new URL(db.url);
    inside.host = `${encodeURIComponent(socketDir)}:5432`;

    const child = spawn('unshare', ['-n', 'sh', '-c', 'ip link set lo up && exec "$0" "$@"', process.execPath, 'tests/support/ssrf-namespace-child.ts'], {
      cwd: root,
      env: { ...process.env, NW_NS_DATABASE_URL: inside.toString() },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    const last = stdout.trim().split('\n').pop() ?? '';
    if (code !== 0 || !last.startsWith('{')) throw new Error(`the namespace run failed (exit ${code}): ${stderr.slice(-2000)}`);
    report = JSON.parse(last) as ChildReport;
  }, 120_000);

  afterAll(async () => {
    proxy?.close();
    if (socketDir) await rm(socketDir, { recursive: true, force: true });
    await db?.drop();
  });

  it('refuses every private, link-local, metadata and embedded-IPv4 literal by policy, at every entrance', () => {
    expect(report.results.length).toBeGreaterThan(60);
    const notRefused = report.results.filter((r) => r.status !== 400 || !/URL is not allowed/.test(r.error ?? ''));
    expect(notRefused).toEqual([]);
  });

  it('refuses names that resolve to internal addresses when the connection is made', () => {
    expect(report.named.filter((r) => r.endpoint === 'extract').map((r) => [r.status, r.error])).toEqual(
      report.named.filter((r) => r.endpoint === 'extract').map(() => [400, 'URL is not allowed']),
    );
    for (const run of report.named.filter((r) => r.endpoint === 'source-run')) expect(run.error).toMatch(/is not an allowed address/);
  });

  it('tells a policy refusal from a connection attempt: a public literal is attempted and fails locally (422)', () => {
    expect(report.control.status).toBe(422);
  });

  it('leaves the canary untouched', () => {
    expect(report.canaryHits).toBe(0);
  });
});
