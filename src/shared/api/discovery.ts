/** Discovery (sources, runs, jobs, stats), link analysis and visitor submissions (spec §7 "Quality and discovery"). */
import { z } from 'zod';
import { INVALID_URL, NOT_ALLOWED, CATEGORIES, DELIVERIES, DISCOVERY_PLATFORMS, IRRELEVANT_ACTIONS, JOB_STATUSES, JOB_TRIGGERS, LIMITS, SKIP_REASONS, type DiscoveryPlatform } from '../constants.ts';
import type { Platform } from '../streams/platform.ts';
import { Id, IsoDate, line, multiline, name, PathId, queryInt, SuccessDto } from './common.ts';
import { endpoint } from './contract.ts';
import { ROUTES } from './routes.ts';
import { StreamUrl, streamUrl } from './streams.ts';

export const JobListQuery = z.object({
  limit: queryInt(1, LIMITS.listPage).withDefault(10),
});

/** Most pages a crawl of earthcam/custom sources reads in one run (the start pages included). */
export const MAX_CRAWL_PAGES = 30;
/** Most entries one run takes from a playlist (iptv-org's whole index is about 10,000). */
export const MAX_PLAYLIST_ENTRIES = 20_000;

const category = z.enum(CATEGORIES).optional();
/**
 * What a run does with finds that do not look like nature cams (src/modules/discovery/relevance.ts):
 * `trust_all` takes every find as one (a curated list), otherwise they go to review or are skipped.
 */
const relevance = {
  trust_all: z.boolean().default(false),
  irrelevant: z.enum(IRRELEVANT_ACTIONS).default('review'),
};
const pageCount = (max: number, fallback: number) =>
  z.number({ error: `Expected a whole number from 1 to ${max}` }).int('Expected a whole number').min(1, 'Must be at least 1').max(max, `Must be at most ${max}`).default(fallback);
const words = (max: number) => z.array(line({ max: 100, min: 1, required: 'Expected a word' })).max(max, `At most ${max} entries`).default([]);

/** Per platform, what a source needs besides its name (validated on create, edit and run). */
export const SOURCE_CONFIGS = {
  youtube: z
    .object({
      query: line({ max: 200, min: 1, required: 'Give a search query or a channel id' }).optional(),
      channel_id: z.string().trim().regex(/^UC[\w-]{22}$/, 'A channel id looks like UC followed by 22 letters, digits, - or _').optional(),
      /** search.list costs 100 quota units a page: a run reads at most this many. */
      max_pages: pageCount(5, 1),
      category,
      ...relevance,
    })
    .refine((c) => Boolean(c.query || c.channel_id), { message: 'Give a search query or a channel id', path: ['query'] })
    .meta({ anyOf: [{ required: ['query'] }, { required: ['channel_id'] }] }),
  twitch: z.object({
    game_id: z.string().trim().regex(/^\d{1,20}$/, 'A Twitch category id is digits (for example 509670 for Science & Technology)'),
    language: z.string().trim().regex(/^[a-z]{2}$/, 'A two-letter language code').optional(),
    /** Only streams carrying one of these tags (case-insensitive); empty: all. */
    tags: words(10),
    max_pages: pageCount(10, 3),
    category,
    ...relevance,
  }),
  vimeo: z.object({
    /** Without VIMEO_TOKEN: these Vimeo links, checked through oEmbed. */
    links: z.array(StreamUrl).max(100, 'At most 100 links').default([]),
    category,
    ...relevance,
  }),
  direct: z.object({
    /** Only entries of these group titles (case-insensitive); empty: all. */
    groups: words(20),
    max_entries: pageCount(MAX_PLAYLIST_ENTRIES, 1000),
    category,
    ...relevance,
    /** A playlist over LARGE_PLAYLIST entries goes to review even when the source delivers to the pool. */
    review_large: z.boolean().default(true),
  }),
  earthcam: z.object({ max_pages: pageCount(MAX_CRAWL_PAGES, 10), category, ...relevance }),
  custom: z.object({ max_pages: pageCount(MAX_CRAWL_PAGES, 10), category, ...relevance }),
} satisfies Record<DiscoveryPlatform, z.ZodType>;

export type SourceConfig<P extends DiscoveryPlatform = DiscoveryPlatform> = z.output<(typeof SOURCE_CONFIGS)[P]>;

/** Five cron fields (minute hour day month weekday); the server checks the expression itself too. */
const CRON_FIELD = (range: string) => `(\\*|${range}(-${range})?)(/[1-9][0-9]?)?(,(\\*|${range}(-${range})?)(/[1-9][0-9]?)?)*`;
/** What the document promises to take: numbers in each field's range, lists, ranges and steps. */
/** What a schedule the pattern allows may still fail on (said in its description, and by the refusal). */
export const SCHEDULE_RULE = "A schedule's ranges go from low to high, each value appears once in a field, and its days exist";
const CRON_PATTERN = `^${[CRON_FIELD('[1-5]?[0-9]'), CRON_FIELD('(1?[0-9]|2[0-3])'), CRON_FIELD('([1-9]|[12][0-9]|3[01])'), CRON_FIELD('([1-9]|1[0-2])'), CRON_FIELD('[0-7]')].join(' ')}$`;
const schedule = z.preprocess(
  (v) => (typeof v === 'string' && v.trim() === '' ? null : v),
  line({ max: 100 })
    .regex(/^\S+(\s+\S+){4}$/, 'A schedule is a cron expression of five fields, for example "0 * * * *" (hourly)')
    .meta({ pattern: CRON_PATTERN, description: `A five-field cron expression (minute hour day month weekday); empty or null: runs only when asked. Names (MON, JAN) are accepted too. ${SCHEDULE_RULE}.` })
    .nullable()
    .optional(),
);

/** Every source's own fields; `config` and `url` depend on its platform. */
const sourceFields = {
  name: name({ max: LIMITS.name, min: 1, required: 'Name is required' }),
  schedule,
  deliver: z.enum(DELIVERIES).default('pool'),
  active: z.boolean().default(true),
};
const optionalUrl = z.preprocess((v) => (v === '' ? null : v), StreamUrl.nullable().optional());
const requiredUrl = (message: string) => z.preprocess((v) => (v === '' || v === null ? undefined : v), streamUrl(message));

/**
 * POST /api/discovery/sources, and PUT with an id: the whole source, one shape per platform —
 * its `config` (SOURCE_CONFIGS) and whether it needs an address (a playlist, a page to crawl).
 */
export const SourceInput = z
  .discriminatedUnion(
    'platform',
    [
      z.object({ ...sourceFields, platform: z.literal('youtube'), url: optionalUrl, config: SOURCE_CONFIGS.youtube }),
      z.object({ ...sourceFields, platform: z.literal('twitch'), url: optionalUrl, config: SOURCE_CONFIGS.twitch }),
      z.object({ ...sourceFields, platform: z.literal('vimeo'), url: optionalUrl, config: SOURCE_CONFIGS.vimeo.default({ links: [], trust_all: false, irrelevant: 'review' }) }),
      z.object({ ...sourceFields, platform: z.literal('direct'), url: requiredUrl('A playlist URL is required'), config: SOURCE_CONFIGS.direct.default({ groups: [], max_entries: 1000, trust_all: false, irrelevant: 'review', review_large: true }) }),
      z.object({ ...sourceFields, platform: z.literal('earthcam'), url: requiredUrl('A page URL is required'), config: SOURCE_CONFIGS.earthcam.default({ max_pages: 10, trust_all: false, irrelevant: 'review' }) }),
      z.object({ ...sourceFields, platform: z.literal('custom'), url: requiredUrl('A page URL is required'), config: SOURCE_CONFIGS.custom.default({ max_pages: 10, trust_all: false, irrelevant: 'review' }) }),
    ],
    { error: `Choose a platform: ${DISCOVERY_PLATFORMS.join(', ')}` },
  )
  .transform((source) => ({ ...source, url: source.url ?? null, schedule: source.schedule ?? null, config: source.config as Record<string, unknown> }));
export type SourceInput = z.output<typeof SourceInput>;

/** POST /api/discovery?action=run: one source, or every active source. */
export const RunQuery = z.object({ action: z.literal('run', { error: 'Unknown action; use ?action=run' }) });
export const RunRequest = z.union([
  z.object({ runAll: z.literal(true) }),
  z.object({
    sourceId: Id,
    options: z.object({ limit: z.number({ error: `limit: a whole number from 1 to ${MAX_PLAYLIST_ENTRIES}` }).int().min(1).max(MAX_PLAYLIST_ENTRIES).optional() }).default({}),
  }),
], { error: 'Give a sourceId, or runAll: true' });
export type RunRequest = z.output<typeof RunRequest>;

export const DiscoverySourceDto = z.strictObject({
  id: z.number().int(),
  name: z.string(),
  platform: z.enum(DISCOVERY_PLATFORMS),
  url: z.string().nullable(),
  config: z.record(z.string(), z.unknown()).describe('The platform\'s settings (SOURCE_CONFIGS)'),
  schedule: z.string().nullable().describe('A five-field cron expression; null: runs only when asked'),
  deliver: z.enum(DELIVERIES),
  active: z.boolean(),
  created_at: IsoDate,
  updated_at: IsoDate,
});
export type DiscoverySourceDto = z.output<typeof DiscoverySourceDto>;

export const DiscoveryJobDto = z.strictObject({
  id: z.number().int(),
  source_id: z.number().int().nullable(),
  source_name: z.string().nullable(),
  status: z.enum(JOB_STATUSES),
  trigger: z.enum(JOB_TRIGGERS),
  error_message: z.string().nullable(),
  streams_discovered: z.number().int(),
  streams_added: z.number().int().describe('Added to the pool (with deliver: review, filed for review)'),
  streams_reviewed: z.number().int().describe('Filed for review by a run that also adds to the pool (not relevant, or a large playlist)'),
  streams_inactive: z.number().int().describe('Of those added, how many went in inactive because they need request headers'),
  skipped: z.partialRecord(z.enum(SKIP_REASONS), z.number().int()).describe('Finds left out, by reason'),
  attempts: z.number().int(),
  created_at: IsoDate,
  started_at: IsoDate.nullable(),
  finished_at: IsoDate.nullable(),
});
export type DiscoveryJobDto = z.output<typeof DiscoveryJobDto>;

export const RunOneDto = z.strictObject({
  jobId: z.number().int(),
  job: DiscoveryJobDto,
});
export type RunOneDto = z.output<typeof RunOneDto>;

export const RunAllDto = z.strictObject({
  jobs: z.number().int().describe('How many jobs were queued'),
});
export type RunAllDto = z.output<typeof RunAllDto>;

export const DiscoveryStatDto = z.strictObject({
  source_id: z.number().int(),
  source_name: z.string(),
  last_run: IsoDate.nullable(),
  total_added: z.number().int(),
  total_discovered: z.number().int(),
});
export type DiscoveryStatDto = z.output<typeof DiscoveryStatDto>;

/** Pushed to admins: a job started, found more, or ended; with its source's totals. */
export interface DiscoveryProgressDto {
  version: number;
  job: DiscoveryJobDto;
  stats: DiscoveryStatDto | null;
}

/** What a visitor or an admin pastes: a link, or an embed code (read, never stored). */
export const ExtractRequest = z.object({
  url: multiline({ max: 10_000, min: 1, required: 'URL is required', description: `A link, or an embed code (HTML) to read links from. Text with no link in it: ${INVALID_URL}. A link to an address that is not public: ${NOT_ALLOWED}.` }),
});

/** The spec §5 platform guesses (src/shared/streams/platform.ts). */
export const PLATFORM_GUESSES = ['youtube', 'twitch', 'vimeo', 'hls', 'mp4', 'unknown'] as const satisfies readonly Platform[];

export const DiscoveredStreamDto = z.strictObject({
  url: z.string(),
  normalizedUrl: z.string(),
  platform: z.enum(PLATFORM_GUESSES),
  title: z.string().nullable(),
  thumbnail: z.string().nullable(),
  embedUrl: z.string().nullable(),
});
export type DiscoveredStreamDto = z.output<typeof DiscoveredStreamDto>;

export const ExtractDto = z.strictObject({
  streams: z.array(DiscoveredStreamDto),
});
export type ExtractDto = z.output<typeof ExtractDto>;

const IdParams = z.object({ id: PathId });

export const discoveryEndpoints = {
  extract: endpoint({
    ...ROUTES['discovery.extract'],
    summary: 'Find the streams in a link, a page or an embed code (rate-limited per IP; pages are read only through the safe fetcher)',
    access: 'public',
    body: ExtractRequest,
    responses: { 200: ExtractDto },
    errors: [422, 429],
  }),
  run: endpoint({
    ...ROUTES['discovery.run'],
    summary: 'Run discovery (?action=run): one source ({sourceId, options} → {jobId, job}) or all ({runAll: true} → {jobs})',
    access: 'curator',
    query: RunQuery,
    body: RunRequest,
    responses: { 200: z.union([RunOneDto, RunAllDto]) },
    errors: [404, 409],
  }),
  sources: endpoint({ ...ROUTES['discovery.sources'], summary: 'Discovery sources', access: 'viewer', responses: { 200: z.array(DiscoverySourceDto) } }),
  createSource: endpoint({
    ...ROUTES['discovery.createSource'],
    summary: 'Add a discovery source (its schedule goes to the job queue)',
    access: 'curator',
    body: SourceInput,
    responses: { 201: DiscoverySourceDto },
    errors: [409],
  }),
  updateSource: endpoint({
    ...ROUTES['discovery.updateSource'],
    summary: 'Replace a discovery source\'s settings',
    access: 'curator',
    params: IdParams,
    body: SourceInput,
    responses: { 200: DiscoverySourceDto },
    errors: [404, 409],
  }),
  deleteSource: endpoint({
    ...ROUTES['discovery.deleteSource'],
    summary: 'Delete a discovery source (refused while it runs)',
    access: 'curator',
    params: IdParams,
    responses: { 200: SuccessDto },
    errors: [404, 409],
  }),
  jobs: endpoint({ ...ROUTES['discovery.jobs'], summary: 'The latest discovery jobs, newest first', access: 'viewer', query: JobListQuery, responses: { 200: z.array(DiscoveryJobDto) } }),
  stats: endpoint({ ...ROUTES['discovery.stats'], summary: 'Each source\'s totals and last run', access: 'viewer', responses: { 200: z.array(DiscoveryStatDto) } }),
};
