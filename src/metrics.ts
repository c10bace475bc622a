/**
 * What Nature Wall tells Prometheus (`GET /metrics`, prom-client): process metrics, HTTP
 * request durations by route template, screens connected, pushes and fan-out time, jobs by
 * queue and state, database availability — and what the modules declare of their own
 * (analyses by outcome: quality; open incidents: alerts). Counters and histograms are touched
 * where the work happens; the gauges are read when scraped, from sources app.ts hands in (the
 * hub's sockets, the job table, the availability watch). One registry per process.
 */
import client from 'prom-client';
import type { DatabaseAvailability } from './database/availability.ts';
import { jobCounts, type JobQueue } from './jobs/queue.ts';

export const registry = new client.Registry();
client.collectDefaultMetrics({ register: registry, prefix: 'nw_' });

export const httpDuration = new client.Histogram({
  name: 'nw_http_request_duration_seconds',
  help: 'HTTP requests by method, route template and status',
  labelNames: ['method', 'route', 'status'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [registry],
});

export const pushesSent = new client.Counter({
  name: 'nw_pushes_total',
  help: 'Socket.IO pushes emitted by this node, by event (one per emit to a set of rooms)',
  labelNames: ['event'] as const,
  registers: [registry],
});

export const fanoutDuration = new client.Histogram({
  name: 'nw_fanout_duration_seconds',
  help: 'Time for this node to push one change to its own sockets',
  buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
  registers: [registry],
});

type Sample<L extends string> = { labels: Record<L, string>; value: number };

/** Where the gauges read from: set by app.ts (the latest app in a process wins: one per node). */
export const gaugeSources: {
  screens?: () => Sample<'kind' | 'group' | 'node'>[];
  jobs?: () => Promise<Sample<'queue' | 'state'>[]>;
  databaseAvailable?: () => boolean;
} = {};

/**
 * A module's metric (declared in its own folder, src/modules/module.ts) into the registry; a
 * later app in the same process (tests) replaces the earlier one's, as with the gauges above.
 */
export function registerModuleMetric(metric: client.Metric): void {
  const name = (metric as unknown as { name: string }).name;
  registry.removeSingleMetric(name);
  registry.registerMetric(metric);
}

new client.Gauge({
  name: 'nw_screens_connected',
  help: 'Screens connected to this node, by kind, screen group and node',
  labelNames: ['kind', 'group', 'node'] as const,
  registers: [registry],
  collect() {
    this.reset();
    for (const { labels, value } of gaugeSources.screens?.() ?? []) this.set(labels, value);
  },
});

new client.Gauge({
  name: 'nw_jobs',
  help: 'Background jobs by queue and state (created, retry, active, failed) across the cluster',
  labelNames: ['queue', 'state'] as const,
  registers: [registry],
  async collect() {
    this.reset();
    for (const { labels, value } of (await gaugeSources.jobs?.().catch(() => [])) ?? []) this.set(labels, value);
  },
});

new client.Gauge({
  name: 'nw_database_available',
  help: '1 while this node can reach PostgreSQL, 0 during an outage',
  registers: [registry],
  collect() {
    this.set(gaugeSources.databaseAvailable?.() === false ? 0 : 1);
  },
});

/** The core's gauges read this app's availability watch and job queue (the latest app in a process wins). */
export function watchCore(availability: DatabaseAvailability, queue: JobQueue | undefined): void {
  gaugeSources.databaseAvailable = () => availability.available;
  if (queue) gaugeSources.jobs = async () => (await jobCounts(queue)).map((r) => ({ labels: { queue: r.queue, state: r.state }, value: r.count }));
}
