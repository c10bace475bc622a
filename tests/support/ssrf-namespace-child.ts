/**
 * Runs inside a network namespace that has only a loopback interface (see
 * tests/security/ssrf-namespace.test.ts): nothing it sends can leave the machine. It starts the
 * real app (database reached through a unix socket, the only thing that crosses), a canary on
 * 127.0.0.1 and [::1] that counts every connection, sends each payload to extraction,
 * submission and discovery sources, and prints one JSON line with what each answered.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApp } from '../../src/app.ts';
import { readModuleSettings } from '../../src/config.ts';
import { authModule } from '../../src/modules/auth/auth.module.ts';
import { discoveryModule } from '../../src/modules/discovery/discovery.module.ts';
import { initORM } from '../../src/orm.ts';
import { DEFAULT_JOB_SETTINGS, startJobQueue } from '../../src/jobs/queue.ts';
import { createLogger } from '../../src/logger.ts';
import { DiscoveryJob } from '../../src/modules/discovery/discovery.entity.ts';

const TOKEN = 'namespace-test-token-0123456789abcdef';
const databaseUrl = process.env.NW_NS_DATABASE_URL!;
const logger = createLogger('silent');

let canaryHits = 0;
const canary = http.createServer((req, res) => {
  canaryHits++;
  res.end('canary');
});
canary.on('connection', () => canaryHits++);
await new Promise<void>((resolve) => canary.listen(0, '127.0.0.1', resolve));
const canaryPort = (canary.address() as AddressInfo).port;
const canary6 = http.createServer((_req, res) => res.end('canary'));
canary6.on('connection', () => canaryHits++);
await new Promise<void>((resolve) => canary6.listen(canaryPort, '::1', resolve));

// Names that resolve to the canary: refused when the connection is made, not before.
const INTERNAL_NAMES: Record<string, string> = { 'internal.test': '127.0.0.1', 'metadata.test': '169.254.169.254', 'mapped.test': '::ffff:127.0.0.1' };

const orm = await initORM({ url: databaseUrl, logger, poolMax: 4 });
const queue = await startJobQueue({ url: databaseUrl, logger, settings: { ...DEFAULT_JOB_SETTINGS, heartbeatSeconds: 10, monitorSeconds: 1 }, max: 3 });
const app = createApp({
  orm,
  logger,
  queue,
  jobs: { ...DEFAULT_JOB_SETTINGS, heartbeatSeconds: 10, monitorSeconds: 1 },
  settings: { auth: { ...(readModuleSettings(authModule) as object), adminApiToken: TOKEN }, discovery: { ...(readModuleSettings(discoveryModule) as object), reconcileMs: 60_000 } },
  fetchAllowHosts: [],
  fetchResolver: async (hostname) => {
    const address = INTERNAL_NAMES[hostname];
    if (!address) throw Object.assign(new Error(`ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return [{ address, family: address.includes(':') ? 6 : 4 }];
  },
});
await app.startJobs();
const server = http.createServer(app.koa.callback());
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

async function post(path: string, body: unknown): Promise<{ status: number; error: string | null; body: unknown }> {
  const res = await fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` }, body: JSON.stringify(body) });
  const parsed = (await res.json().catch(() => null)) as { error?: string } | null;
  return { status: res.status, error: parsed?.error ?? null, body: parsed };
}

const p = canaryPort;
/** Literal addresses: every one must be refused by policy (400), before any connection. */
const literals = [
  `http://127.0.0.1:${p}/`,
  `http://127.1:${p}/`,
  `http://2130706433:${p}/`,
  `http://0x7f000001:${p}/`,
  `http://017700000001:${p}/`,
  `http://0:${p}/`,
  `http://0.0.0.0:${p}/`,
  `http://[::1]:${p}/`,
  `http://[::]:${p}/`,
  `http://[::ffff:127.0.0.1]:${p}/`,
  `http://[::127.0.0.1]:${p}/`,
  `http://[64:ff9b::127.0.0.1]:${p}/`,
  `http://[2002:7f00:1::]:${p}/`,
  `http://localhost:${p}/`,
  'http://10.0.0.1/',
  'http://172.16.0.1/',
  'http://192.168.0.1/',
  'http://100.64.0.1/',
  'http://169.254.169.254/latest/meta-data/',
  'http://[::169.254.169.254]/latest/meta-data/',
  'http://[::ffff:169.254.169.254]/latest/meta-data/',
  'http://[::10.0.0.1]/',
  'http://[fe80::1]/',
  'http://[fc00::1]/',
  'http://[fd00:ec2::254]/latest/meta-data/',
  'http://[2001:0:4136:e378:8000:63bf:80ff:fffe]/',
  'http://224.0.0.1/',
  'http://[ff02::1]/',
];

const results: Array<{ url: string; endpoint: string; status: number; error: string | null }> = [];
for (const url of literals) {
  const extract = await post('/api/discovery/extract', { url });
  results.push({ url, endpoint: 'extract', status: extract.status, error: extract.error });
  const submit = await post('/api/discovery/submit', { url });
  results.push({ url, endpoint: 'submit', status: submit.status, error: submit.error });
  const source = await post('/api/discovery/sources', { name: `ns ${results.length}`, platform: 'direct', url });
  results.push({ url, endpoint: 'source', status: source.status, error: source.error });
}

// Names that resolve to internal addresses: accepted as text, refused when fetched (in the lookup).
const named: typeof results = [];
for (const host of Object.keys(INTERNAL_NAMES)) {
  const url = `http://${host}:${p}/cams.m3u`;
  const extract = await post('/api/discovery/extract', { url: `http://${host}:${p}/page` });
  named.push({ url, endpoint: 'extract', status: extract.status, error: extract.error });
  const source = (await post('/api/discovery/sources', { name: `named ${host}`, platform: 'direct', url })).body as { id: number };
  const run = (await post('/api/discovery?action=run', { sourceId: source.id })).body as { jobId: number };
  let job: DiscoveryJob | null = null;
  for (let i = 0; i < 200 && !(job && (job.status === 'failed' || job.status === 'completed')); i++) {
    await new Promise((r) => setTimeout(r, 100));
    job = await orm.em.fork().findOne(DiscoveryJob, { id: run.jobId });
  }
  named.push({ url, endpoint: 'source-run', status: job?.status === 'failed' ? 400 : 200, error: job?.errorMessage ?? null });
}

// The control: a public address the policy lets through is attempted, and fails here (no route).
const control = await post('/api/discovery/extract', { url: 'http://[2001:4860:4860::8888]/page' });

app.stop();
server.closeAllConnections();
await new Promise((r) => server.close(r));
await queue.stop({ graceful: false });
await orm.close();
canary.close();
canary6.close();
process.stdout.write(`${JSON.stringify({ results, named, control: { status: control.status, error: control.error }, canaryHits })}\n`);
process.exit(0);
