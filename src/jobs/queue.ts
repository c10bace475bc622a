/**
 * The background-job queue: pg-boss on our own PostgreSQL (schema `pgboss`, created and migrated
 * by pg-boss itself on start, so `npm start` still needs nothing but Node). Any node can work any
 * job; a node that dies mid-job stops heartbeating and the job is retried or failed by whichever
 * node supervises next. Cron schedules fire once per tick across all nodes.
 */
import { PgBoss } from 'pg-boss';
import type { Logger } from '../logger.ts';

export type JobQueue = PgBoss;

export interface JobSettings {
  /** JOBS_ENABLED: whether this node works jobs (every node can still queue them). */
  enabled: boolean;
  /** JOBS_HEARTBEAT_SECONDS: a running job's heartbeat; silent this long, it is retried or failed. */
  heartbeatSeconds: number;
  /**
   * JOBS_MONITOR_SECONDS: how often nodes supervise the queues, fail or retry jobs whose worker
   * went silent, and look for due schedules (pg-boss's defaults when unset: a silent job waited up
   * to a minute past its heartbeat).
   */
  monitorSeconds: number | undefined;
}

export const DEFAULT_JOB_SETTINGS: JobSettings = { enabled: true, heartbeatSeconds: 30, monitorSeconds: undefined };

export async function startJobQueue(options: { url: string; logger: Logger; settings: JobSettings; max?: number }): Promise<JobQueue> {
  const monitor = options.settings.monitorSeconds;
  const boss = new PgBoss({
    connectionString: options.url,
    schema: 'pgboss',
    max: options.max ?? 4,
    application_name: 'nature-wall-jobs',
    // Where silent jobs are found and schedules fire: shortened by JOBS_MONITOR_SECONDS (tests).
    // A silent job is failed by a queue's monitor pass, which runs at most every
    // monitorIntervalSeconds per queue however often the supervisor wakes, so both are set.
    ...(monitor
      ? { superviseIntervalSeconds: monitor, monitorIntervalSeconds: monitor, cronMonitorIntervalSeconds: Math.min(monitor, 45), cronWorkerIntervalSeconds: Math.min(monitor, 45) }
      : {}),
    openTelemetry: { enabled: false },
    // Queues that opt in (`notify: true`) wake their workers the moment a job is created, instead
    // of at their next poll: an admin's analysis starts at once. Costs one listening connection.
    useListenNotify: true,
  });
  // pg-boss reports database trouble as events; a restart of PostgreSQL must never end the process.
  let quiet = false;
  boss.on('error', (error) => {
    if (quiet) return;
    quiet = true;
    options.logger.warn({ err: error }, 'job queue: database error (pg-boss keeps retrying)');
    setTimeout(() => (quiet = false), 30_000).unref();
  });
  await boss.start();
  return boss;
}

export interface QueueCensus {
  /** Jobs waiting to run (created or retrying, start time reached or not), by priority. */
  waiting: Map<number, number>;
  running: number;
  /** Jobs completed within the window asked for. */
  completed: number;
}

/**
 * A queue's waiting jobs by priority, its running jobs and its recent completions. pg-boss
 * counts a queue as a whole only; its job table (partitioned by queue name) is read here, and
 * nowhere else.
 */
export async function queueCensus(queue: JobQueue, name: string, windowSeconds: number): Promise<QueueCensus> {
  const { rows } = await queue.getDb().executeSql(
    `select priority, state::text as state, count(*)::int as n from pgboss.job
      where name = $1 and (state in ('created', 'retry', 'active') or (state = 'completed' and completed_on > now() - make_interval(secs => $2)))
      group by priority, state`,
    [name, windowSeconds],
  );
  const census: QueueCensus = { waiting: new Map(), running: 0, completed: 0 };
  for (const row of rows as { priority: number; state: string; n: number }[]) {
    if (row.state === 'active') census.running += row.n;
    else if (row.state === 'completed') census.completed += row.n;
    else census.waiting.set(row.priority, (census.waiting.get(row.priority) ?? 0) + row.n);
  }
  return census;
}

/** Jobs of every queue by state (for the metrics): created, retry, active, and failed ones still kept. */
export async function jobCounts(queue: JobQueue): Promise<{ queue: string; state: string; count: number }[]> {
  const { rows } = await queue.getDb().executeSql(
    `select name, state::text as state, count(*)::int as n from pgboss.job where state in ('created', 'retry', 'active', 'failed') group by name, state`,
    [],
  );
  return (rows as { name: string; state: string; n: number }[]).map((r) => ({ queue: r.name, state: r.state, count: r.n }));
}

/**
 * Ids of a queue's unfinished jobs (waiting, retrying or running) under any of these singleton
 * keys. A running one counts: left alone, a failure or a silent worker sends it back to wait
 * (its retry) after whatever cancelled the waiting ones has looked.
 */
export async function unfinishedJobIds(queue: JobQueue, name: string, keys: readonly string[]): Promise<string[]> {
  if (keys.length === 0) return [];
  const { rows } = await queue.getDb().executeSql(
    `select id from pgboss.job where name = $1 and state in ('created', 'retry', 'active') and singleton_key = any($2::text[])`,
    [name, keys],
  );
  return (rows as { id: string }[]).map((r) => r.id);
}
