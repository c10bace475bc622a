import { defineEntity, p } from '@mikro-orm/core';
import { DELIVERIES, DISCOVERY_PLATFORMS, JOB_STATUSES, JOB_TRIGGERS, type SkipReason } from '../../shared/constants.ts';

/** Where discovery looks for new cams: a search, a channel, a category, a playlist, pages. */
export const DiscoverySourceSchema = defineEntity({
  name: 'DiscoverySource',
  tableName: 'discovery_sources',
  properties: {
    id: p.integer().primary(),
    name: p.text().unique('discovery_sources_name_unique'),
    platform: p.enum(DISCOVERY_PLATFORMS),
    url: p.text().nullable(),
    /** Platform settings, validated by the platform's schema (src/shared/api/discovery.ts). */
    config: p.json<Record<string, unknown>>().defaultRaw(`'{}'::jsonb`).onCreate(() => ({})),
    /** A cron expression: the source runs on it, once per tick across all nodes. */
    schedule: p.text().nullable(),
    /** Where finds go: straight into the pool, or to the submissions review queue. */
    deliver: p.enum(DELIVERIES).default('pool'),
    active: p.boolean().default(true),
    createdAt: p.datetime().defaultRaw('now()').onCreate(() => new Date()),
    updatedAt: p.datetime().defaultRaw('now()').onCreate(() => new Date()).onUpdate(() => new Date()),
  },
});

export class DiscoverySource extends DiscoverySourceSchema.class {}
DiscoverySourceSchema.setClass(DiscoverySource);

export const DiscoveryJobSchema = defineEntity({
  name: 'DiscoveryJob',
  tableName: 'discovery_jobs',
  properties: {
    id: p.integer().primary(),
    source: () => p.manyToOne(DiscoverySource).nullable().deleteRule('set null').index('discovery_jobs_source_idx'),
    status: p.enum(JOB_STATUSES).default('queued'),
    trigger: p.enum(JOB_TRIGGERS).default('manual'),
    /** The run's options as the admin gave them (limits). */
    options: p.json<Record<string, unknown>>().defaultRaw(`'{}'::jsonb`).onCreate(() => ({})),
    errorMessage: p.text().nullable(),
    streamsDiscovered: p.integer().default(0),
    /** Finds added to the pool (with `deliver: review`, filed for review: the spec's one count). */
    streamsAdded: p.integer().default(0),
    /** Finds filed for review by a run that also adds to the pool (not relevant, or a large playlist). */
    streamsReviewed: p.integer().default(0),
    /** Of those added, how many went in inactive (they need headers a browser cannot send). */
    streamsInactive: p.integer().default(0),
    /** Finds left out, by reason. */
    skipped: p.json<Partial<Record<SkipReason, number>>>().defaultRaw(`'{}'::jsonb`).onCreate(() => ({})),
    /** How many times a worker picked it up (above 1: a worker died and the queue retried it). */
    attempts: p.integer().default(0),
    /** The pg-boss job carrying this run. */
    queueJobId: p.text().nullable(),
    createdAt: p.datetime().defaultRaw('now()').onCreate(() => new Date()).index('discovery_jobs_created_idx'),
    startedAt: p.datetime().nullable(),
    finishedAt: p.datetime().nullable(),
  },
  checks: [
    { name: 'discovery_jobs_counts_check', expression: 'streams_discovered >= 0 and streams_added >= 0' },
  ],
});

export class DiscoveryJob extends DiscoveryJobSchema.class {}
DiscoveryJobSchema.setClass(DiscoveryJob);

/** Spec §3 discovery_stats: per source, its last run and what its jobs found and added. */
export const DiscoveryStatSchema = defineEntity({
  name: 'DiscoveryStat',
  tableName: 'discovery_stats',
  view: true,
  expression: `select s.id as source_id, s.name as source_name, max(j.created_at) as last_run,
  coalesce(sum(j.streams_added), 0)::int as total_added, coalesce(sum(j.streams_discovered), 0)::int as total_discovered
  from discovery_sources s left join discovery_jobs j on j.source_id = s.id group by s.id, s.name`,
  properties: {
    sourceId: p.integer().primary(),
    sourceName: p.text(),
    lastRun: p.datetime().nullable(),
    totalAdded: p.integer(),
    totalDiscovered: p.integer(),
  },
});

export class DiscoveryStat extends DiscoveryStatSchema.class {}
DiscoveryStatSchema.setClass(DiscoveryStat);
