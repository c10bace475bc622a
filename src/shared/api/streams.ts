/** Streams: the pool every scene draws from (spec §3, §5). */
import { z } from 'zod';
import { CATEGORIES, DEFAULTS, INVALID_URL, LIMITS, QUALITIES } from '../constants.ts';
import { GRADE_BUCKETS } from '../quality/grade.ts';
import { toAbsoluteUrl } from '../streams/url.ts';
import { HEALTH_STATES } from '../quality/health.ts';
import { QUALITY_FAULTS } from '../quality/score.ts';
import { blankAsNull, booleanQuery, documentedAs, HTTP_URL_PATTERN, Id, IdBody, IsoDate, line, MAX_ID, multiline, name, PathId, queryInt, RequestHeadersDto, SuccessDto, TimeZone } from './common.ts';
import { endpoint } from './contract.ts';
import { UptimeDto } from './uptime.ts';
import { ROUTES } from './routes.ts';

/** A stream address: absolute http(s) (scheme-less platform links get https://); `required` when missing. */
export const streamUrl = (required = 'URL is required') =>
  documentedAs(
    line({ max: LIMITS.url, min: 1, required }).transform((value, ctx) => {
      const url = toAbsoluteUrl(value);
      if (!url) {
        ctx.addIssue({ code: 'custom', message: INVALID_URL });
        return z.NEVER;
      }
      return url.href;
    }),
    {
      type: 'string',
      minLength: 1,
      maxLength: LIMITS.url,
      pattern: HTTP_URL_PATTERN,
      description: 'An absolute http(s) address. Also accepted: an IP address as host, and the scheme-less links people paste (youtu.be/…, twitch.tv/…, host/path/file.m3u8), which get https://.',
    },
  );
export const StreamUrl = streamUrl();

/** Numbers or numeric text; empty text means "no value" (spec §5: omitted when empty). */
const coordinate = (min: number, max: number, label: string) =>
  z.preprocess(
    (v) => (v === '' ? null : typeof v === 'string' && v.trim() !== '' ? Number(v) : v),
    z
      .number({ error: `${label} must be a number` })
      .min(min, `${label} must be between ${min} and ${max}`)
      .max(max, `${label} must be between ${min} and ${max}`)
      .nullable()
      .optional(),
  );

const timezone = z.preprocess((v) => (v === '' ? null : v), TimeZone('Unknown timezone').nullable().optional());

/** Every editable stream field, none required: the base of create and update. */
const streamFields = z.object({
  name: name({ max: LIMITS.name, min: 1, required: 'Name is required' }),
  url: StreamUrl,
  fallback_url: z.preprocess((v) => (v === '' ? null : v), StreamUrl.nullable().optional()),
  description: blankAsNull(multiline({ max: LIMITS.description })),
  category: z.enum(CATEGORIES),
  quality: z.enum(QUALITIES),
  active: z.boolean(),
  location_name: blankAsNull(name({ max: LIMITS.locationName })),
  latitude: coordinate(-90, 90, 'Latitude'),
  longitude: coordinate(-180, 180, 'Longitude'),
  timezone,
  recording_ok: z.boolean().describe('Replaying a recording is fine for this stream: a looped recording keeps its place on pool walls'),
});

export const StreamCreate = streamFields.extend({
  category: streamFields.shape.category.default(DEFAULTS.category),
  quality: streamFields.shape.quality.default(DEFAULTS.quality),
  active: streamFields.shape.active.default(true),
  recording_ok: streamFields.shape.recording_ok.default(false),
});
export type StreamCreate = z.infer<typeof StreamCreate>;

/** PUT /api/streams: the id plus any fields to change; fields left out keep their value. */
export const StreamUpdate = streamFields.partial().extend({ id: Id });
export type StreamUpdate = z.infer<typeof StreamUpdate>;

/** Said in the document and by the refusal of a cursor that is not a page's next_cursor. */
export const CURSOR_REFUSAL = 'not valid for this sort (start again without a cursor)';

export const STREAM_SORTS = ['newest', 'name', 'quality', 'category'] as const;
export type StreamSort = (typeof STREAM_SORTS)[number];

/**
 * GET /api/streams: without paging parameters, the spec's whole list; with any of `limit`,
 * `cursor`, `q`, `category`, `sort`, `grade`, `ids` a page of a pool of thousands, searched, filtered and
 * sorted by the server (keyset cursor: pages stay fast however deep).
 */
export const StreamListQuery = z.object({
  active: booleanQuery.optional(),
  limit: queryInt(1, 200, 'limit must be between 1 and 200').optional(),
  cursor: z
    .string()
    .max(500, 'cursor is not valid')
    .regex(/^[A-Za-z0-9_-]+$/, 'cursor is not valid')
    .optional()
    .describe(`The next_cursor of the page before, with the same sort; any other value is ${CURSOR_REFUSAL}`),
  q: line({ max: 100 }).optional(),
  category: z.enum(CATEGORIES, { error: `category must be one of ${CATEGORIES.join(', ')}` }).optional(),
  sort: z.enum(STREAM_SORTS, { error: `sort must be one of ${STREAM_SORTS.join(', ')}` }).optional(),
  grade: z.enum(GRADE_BUCKETS, { error: `grade must be one of ${GRADE_BUCKETS.join(', ')}` }).optional(),
  ids: z
    .string()
    .regex(/^[1-9][0-9]{0,9}(,[1-9][0-9]{0,9}){0,199}$/, 'ids must be up to 200 stream ids separated by commas')
    // An id past the largest there can be names no stream: it matches nothing.
    .transform((text) => [...new Set(text.split(',').map(Number))].filter((id) => id <= MAX_ID))
    .optional()
    .describe('Only these streams (the console looks up the streams a scene or a screen names)'),
});
export type StreamListQuery = z.output<typeof StreamListQuery>;

/** The filters of the stream table, without paging: what the analytics count. */
export const StreamFilterQuery = StreamListQuery.pick({ active: true, q: true, category: true, grade: true });
export type StreamFilterQuery = z.output<typeof StreamFilterQuery>;

/** The pool at a glance, under the filters given (spec §2: found, analysed, pending; the analytics panel). */
export const StreamAnalyticsDto = z.strictObject({
  found: z.number().int(),
  active: z.number().int(),
  inactive: z.number().int(),
  analyzed: z.number().int(),
  pending: z.number().int(),
  active_without_location: z.number().int().describe('Active streams without coordinates (a daylight scene leaves them out)'),
  by_category: z.strictObject({ nature: z.number().int(), volcano: z.number().int(), ocean: z.number().int(), waterfall: z.number().int(), wildlife: z.number().int() }),
  by_grade: z.strictObject({ A: z.number().int(), B: z.number().int(), C: z.number().int(), failed: z.number().int(), unreachable: z.number().int(), 'not-analyzed': z.number().int() }),
  by_health: z.strictObject({ unknown: z.number().int(), live: z.number().int(), degraded: z.number().int(), offline: z.number().int() }),
  histogram: z.array(z.number().int()).length(10).describe('Analysed streams by score, in tens (0–9, 10–19, … 90–100)'),
});
export type StreamAnalyticsDto = z.output<typeof StreamAnalyticsDto>;

/** A stream as every answer shows it (spec field names). */
export const StreamDto = z.strictObject({
  id: z.number().int(),
  name: z.string(),
  url: z.string(),
  fallback_url: z.string().nullable(),
  description: z.string().nullable(),
  category: z.enum(CATEGORIES),
  quality: z.enum(QUALITIES),
  active: z.boolean(),
  created_at: IsoDate,
  updated_at: IsoDate,
  quality_score: z.number().nullable().describe('0–100; null: not analysed'),
  quality_assessed_at: IsoDate.nullable(),
  quality_confidence: z.number().nullable().describe('0–1'),
  location_name: z.string().nullable(),
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
  timezone: z.string().nullable(),
  health: z.enum(HEALTH_STATES).describe('From its analyses and its players (src/shared/quality/health.ts)'),
  health_since: IsoDate.nullable().describe('When its health last changed'),
  health_faults: z.array(z.enum(QUALITY_FAULTS)).describe('What the check that set its health found (why a degraded stream is degraded)'),
  auto_score: z.number().nullable().describe('The automatic half of quality_score (0–100)'),
  human_score: z.number().nullable().describe('The raters\' half of quality_score (0–5)'),
  human_confidence: z.number().nullable(),
  human_count: z.number().int(),
  request_headers: RequestHeadersDto.nullable().describe('Headers a player must send (from a playlist); a browser cannot send them'),
  inactive_reason: z.string().nullable().describe('Why the system keeps it inactive (it needs headers)'),
  playback: z
    .strictObject({
      sync_latency_ms: z.number().int().nullable().describe('Every screen plays it this far behind its program date-time; null: the playlist has none'),
      start_bandwidth: z.number().int().nullable().describe('Bits/s of the variant players start at; null: a single variant'),
      camera_skew_ms: z
        .number()
        .int()
        .nullable()
        .describe("How far the camera's program date-time was from the server's clock (ms, positive: fast) when screens cannot follow it: they play its live edge. Null: on time, or no program date-time"),
    })
    .nullable()
    .describe('How screens start and sync this HLS stream, chosen by its analysis from its playlist; null: not read yet, or not HLS'),
  still_url: z
    .string()
    .nullable()
    .describe('Its current still (≈ 320 px, from its latest analysis), served from this origin; the `v` query changes with each new picture. Null: none yet'),
  activity: z.number().nullable().describe('What is happening now: local motion above the picture\'s noise in its last analysis (grey levels); null: unknown (an embedded player, or not analysed)'),
  activity_ratio: z.number().nullable().describe('That activity against the camera\'s normal at this hour (1: usual, 4: four times its usual); null: no normal yet'),
  activity_basis: z.enum(['own', 'category']).nullable().describe('Whose normal: the camera\'s own analyses at this hour, or its category\'s (until it has enough)'),
  activity_recent: z.array(z.strictObject({ at: IsoDate, activity: z.number() })).describe('The last analyses\' activity, oldest first'),
  looped: z
    .strictObject({
      kind: z.enum(['replay', 'program-time']),
      found_at: IsoDate,
      earlier_at: IsoDate,
      at_seconds: z.number().nullable(),
      earlier_at_seconds: z.number().nullable(),
      note: z.string(),
    })
    .nullable()
    .describe('Why it is taken for a recording replayed as live (both analyses\' times); null: none found'),
  recording_ok: z.boolean().describe('An admin said replaying a recording is fine for it'),
});
export type StreamDto = z.output<typeof StreamDto>;

export const StreamPageDto = z.strictObject({
  streams: z.array(StreamDto),
  next_cursor: z.string().nullable().describe('Give it back as `cursor` for the next page; null on the last page'),
  total: z.number().int().nullable().describe('How many match the search and filters, up to 1,000; on the first page only'),
  total_capped: z.boolean().describe('More than `total` match (the count stops at 1,000)'),
});
export type StreamPageDto = z.output<typeof StreamPageDto>;

export const streamEndpoints = {
  list: endpoint({
    ...ROUTES['stream.list'],
    summary: 'The stream pool: the whole list, or with paging parameters a page (anonymous callers see active streams only)',
    access: 'public',
    query: StreamListQuery,
    responses: { 200: z.union([z.array(StreamDto), StreamPageDto]) },
  }),
  analytics: endpoint({ ...ROUTES['stream.analytics'], summary: 'Counts of the pool under the table\'s filters (by category, grade and health; a score histogram)', access: 'viewer', query: StreamFilterQuery, responses: { 200: StreamAnalyticsDto } }),
  get: endpoint({ ...ROUTES['stream.get'], summary: 'One stream', access: 'public', params: z.object({ id: PathId }), responses: { 200: StreamDto }, errors: [404] }),
  uptime: endpoint({
    ...ROUTES['stream.uptime'],
    summary: 'The share of the last 24 hours and 7 days the stream was live (degraded and offline are not), and per hour',
    access: 'viewer',
    params: z.object({ id: PathId }),
    responses: { 200: UptimeDto },
    errors: [404],
  }),
  create: endpoint({ ...ROUTES['stream.create'], summary: 'Add a stream', access: 'curator', body: StreamCreate, responses: { 201: StreamDto }, errors: [409] }),
  update: endpoint({
    ...ROUTES['stream.update'],
    summary: 'Change a stream\'s fields (those given)',
    access: 'curator',
    body: StreamUpdate,
    responses: { 200: z.strictObject({ success: z.literal(true), stream: StreamDto }) },
    errors: [404, 409],
  }),
  still: endpoint({
    ...ROUTES['stream.still'],
    summary: 'The stream\'s current still (a JPEG frame of its latest analysis, or its platform\'s thumbnail), with ETag and a 5-minute public cache',
    access: 'public',
    params: z.object({ id: PathId }),
    responses: { 200: z.string().describe('The picture') },
    produces: 'image/*',
    conditional: true,
    errors: [404],
  }),
  remove: endpoint({ ...ROUTES['stream.remove'], summary: 'Delete a stream (its scene slots go with it)', access: 'curator', body: IdBody, responses: { 200: SuccessDto }, errors: [404] }),
};
