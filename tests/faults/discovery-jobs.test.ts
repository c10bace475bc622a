/**
 * Discovery's jobs survive their workers and run on schedule once, with real server processes
 * sharing one database: a node killed (SIGKILL) in the middle of a run leaves a job that
 * another node retries and finishes — never one stuck 'running' — a node stopped for a deploy
 * (SIGTERM) hands its run back to the queue instead of failing it, and a scheduled source runs
 * exactly once per cron tick with two nodes up.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import { startPlatformFixtures, type PlatformFixtures } from '../support/platforms.ts';
import { callNode, eventually, startNode, type ServerNode } from './support.ts';

let db: TestDatabase;
let fixtures: PlatformFixtures;
const nodes: ServerNode[] = [];

async function query<T>(sql: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  try {
    return (await client.query(sql, values)).rows as T[];
  } finally {
    await client.end();
  }
}

async function node(env: NodeJS.ProcessEnv = {}): Promise<ServerNode> {
  const started = await startNode({
    DATABASE_URL: db.url,
    FETCH_ALLOW_HOSTS: '127.0.0.1',
    JOBS_HEARTBEAT_SECONDS: '10',
    JOBS_MONITOR_SECONDS: '1',
    ...env,
  });
  nodes.push(started);
  return started;
}

interface JobRow {
  status: string;
  attempts: number;
  streams_added: number;
  error_message: string | null;
}
const jobRow = async (id: number) => (await query<JobRow>('select status, attempts, streams_added, error_message from discovery_jobs where id = $1', [id]))[0]!;

beforeAll(async () => {
  db = await createTestDatabase();
  fixtures = await startPlatformFixtures();
});
afterAll(async () => {
  await Promise.all(nodes.map((n) => n.stop()));
  await fixtures?.close();
  await db?.drop();
}, 60_000);

describe('a worker killed in the middle of a run', () => {
  it('leaves a job that another node retries and finishes, never one stuck running', async () => {
    const slow = fixtures.holdSlow();
    const a = await node();
    const source = await callNode(a.base, 'POST', '/api/discovery/sources', { name: 'Slow cams', platform: 'direct', url: `${fixtures.base}/slow/cams.m3u` });
    expect(source.status).toBe(201);
    const run = await callNode(a.base, 'POST', '/api/discovery?action=run', { sourceId: source.body.id });
    expect(run.status).toBe(200);
    const jobId = (run.body as { jobId: number }).jobId;
    const slowRequests = () => fixtures.requests.filter((r) => r === 'GET /slow/cams.m3u').length;
    await eventually('node A works the job', async () => slowRequests() === 1 && (await jobRow(jobId)).status === 'running');

    a.child.kill('SIGKILL');
    await eventually('node A is gone', () => a.exitCode() !== null);
    expect((await jobRow(jobId)).status).toBe('running'); // nobody has noticed yet

    await node(); // B: its supervisor finds the silent job, and its worker takes the retry
    // The heartbeat (10 s), then B's next monitor pass of the queue (JOBS_MONITOR_SECONDS: 1 s).
    await eventually('node B retries the job', () => slowRequests() === 2, 60_000);
    expect(await jobRow(jobId)).toMatchObject({ status: 'running', attempts: 2 });
    slow.release();
    await eventually('the retried job completes', async () => (await jobRow(jobId)).status !== 'running', 30_000);
    expect(await jobRow(jobId)).toMatchObject({ status: 'completed', attempts: 2, streams_added: 2, error_message: null });
    expect(await query(`select count(*)::int as n from streams where url like 'https://streams.example.org/slow-cam/%'`)).toEqual([{ n: 2 }]);
  }, 120_000);
});

describe('a node stopped for a deploy (SIGTERM) in the middle of a run', () => {
  it('hands the job back to the queue: another node runs it to the end, and the row is never failed', async () => {
    for (const n of nodes) await n.stop(); // alone with the job
    const slow = fixtures.holdSlow();
    const slowRequests = () => fixtures.requests.filter((r) => r === 'GET /slow/cams.m3u').length;
    const before = slowRequests();
    const a = await node({ SHUTDOWN_GRACE_SECONDS: '4' });
    const source = await callNode(a.base, 'POST', '/api/discovery/sources', { name: 'Slow cams for a deploy', platform: 'direct', url: `${fixtures.base}/slow/cams.m3u` });
    expect(source.status).toBe(201);
    const run = await callNode(a.base, 'POST', '/api/discovery?action=run', { sourceId: source.body.id });
    expect(run.status).toBe(200);
    const jobId = (run.body as { jobId: number }).jobId;
    await eventually('node A works the job', async () => slowRequests() === before + 1 && (await jobRow(jobId)).status === 'running');

    a.child.kill('SIGTERM'); // the run outlasts A's grace: A hands it back and exits
    await eventually('node A has stopped', () => a.exitCode() !== null);
    expect(a.exitCode()).toBe(0);
    expect(a.output()).toContain('discovery: run handed back to the queue');
    expect(await jobRow(jobId)).toMatchObject({ status: 'running', attempts: 1, error_message: null });

    await node(); // B takes the retry
    await eventually('node B runs the job again', () => slowRequests() === before + 2, 60_000);
    expect(await jobRow(jobId)).toMatchObject({ status: 'running', attempts: 2 });
    slow.release();
    await eventually('the job completes on B', async () => (await jobRow(jobId)).status !== 'running', 30_000);
    expect(await jobRow(jobId)).toMatchObject({ status: 'completed', attempts: 2, error_message: null });
  }, 120_000);
});

describe('a scheduled source with two nodes up', () => {
  it('runs once per cron tick', async () => {
    while (nodes.filter((n) => n.exitCode() === null).length < 2) await node();
    const [b] = nodes.filter((n) => n.exitCode() === null);
    const url = fixtures.setPlaylist('scheduled', 3, { prefix: 'Scheduled Cam' });
    // pg-boss sends a new schedule's latest occurrence at once (it is due for 60 s), so a source
    // made in a minute's last seconds runs for that minute and again at the next one, both within
    // a second or two: runs are grouped by minute below, so the source is made well inside one.
    const second = async () => (await query<{ s: number }>(`select extract(second from now())::float8 as s`, []))[0]!.s;
    if ((await second()) >= 50) await eventually('a new minute', async () => (await second()) < 50, 15_000, 200);
    const source = await callNode(b!.base, 'POST', '/api/discovery/sources', { name: 'Every minute', platform: 'direct', url, schedule: '* * * * *' });
    expect(source.status).toBe(201);
    const sourceId = source.body.id!;

    const scheduled = () => query<{ id: number; minute: string; created: string }>(
      `select id, date_trunc('minute', created_at)::text as minute, created_at::text as created from discovery_jobs where source_id = $1 and trigger = 'schedule' order by id`,
      [sourceId],
    );
    await eventually('the first tick runs the source', async () => (await scheduled()).length > 0, 75_000, 250);
    const [first] = await scheduled();
    // Three more cron passes later (pg-boss stamps pgboss.version.cron_on on each; a node whose
    // attempt is not the pass sends nothing), that tick has still made one queue job and one run.
    const stamps = new Set<string>();
    await eventually('three cron passes after the tick', async () => {
      const [row] = await query<{ cron_on: string }>(`select cron_on::text from pgboss.version where cron_on > $1::timestamptz`, [first!.created]);
      if (row) stamps.add(row.cron_on);
      return stamps.size >= 3;
    }, 30_000, 100);
    const runs = (await scheduled()).filter((r) => r.minute === first!.minute);
    expect(runs).toHaveLength(1);
    const queueJobs = await query<{ n: number }>(
      `select count(*)::int as n from pgboss.job where name = 'discovery' and data->>'sourceId' = $1 and date_trunc('minute', created_on) = $2::timestamptz`,
      [String(sourceId), first!.minute],
    );
    expect(queueJobs).toEqual([{ n: 1 }]);
    await eventually('the scheduled run completes', async () => (await jobRow(first!.id)).status === 'completed', 30_000);
    expect((await jobRow(first!.id)).streams_added).toBe(3);
  }, 120_000);
});
