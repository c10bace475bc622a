/** Streams: the pool every scene draws from (spec §3, §5). */
import { z } from 'zod';
import { CATEGORIES, DEFAULTS, LIMITS, QUALITIES, type Category, type Quality } from '../constants.ts';
import { isValidTimezone } from '../streams/location.ts';
import { toAbsoluteUrl } from '../streams/url.ts';
import type { HealthState } from '../quality/health.ts';
import { booleanQuery, cleanText, Id, optionalText } from './common.ts';
import type { RequestHeaders } from '../streams/request-headers.ts';

/** A stream address: absolute http(s) (scheme-less platform links get https://). */
export const StreamUrl = z
  .string({ error: 'URL is required' })
  .trim()
  .min(1, 'URL is required')
  .max(LIMITS.url, `Must be at most ${LIMITS.url} characters`)
  .transform((value, ctx) => {
    const url = toAbsoluteUrl(value);
    if (!url) {
      ctx.addIssue({ code: 'custom', message: 'Please enter a valid URL' });
      return z.NEVER;
    }
    return url.href;
  });

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

const timezone = z.preprocess(
  (v) => (v === '' ? null : v),
  z.string().trim().refine(isValidTimezone, 'Unknown timezone').nullable().optional(),
);

/** Every editable stream field, none required: the base of create and update. */
const streamFields = z.object({
  name: cleanText(LIMITS.name).min(1, 'Name is required'),
  url: StreamUrl,
  fallback_url: z.preprocess((v) => (v === '' ? null : v), StreamUrl.nullable().optional()),
  description: optionalText(LIMITS.description),
  category: z.enum(CATEGORIES),
  quality: z.enum(QUALITIES),
  active: z.boolean(),
  location_name: optionalText(LIMITS.locationName),
  latitude: coordinate(-90, 90, 'Latitude'),
  longitude: coordinate(-180, 180, 'Longitude'),
  timezone,
});

export const StreamCreate = streamFields.extend({
  name: z.string({ error: 'Name is required' }).pipe(streamFields.shape.name),
  category: streamFields.shape.category.default(DEFAULTS.category),
  quality: streamFields.shape.quality.default(DEFAULTS.quality),
  active: streamFields.shape.active.default(true),
});
export type StreamCreate = z.infer<typeof StreamCreate>;

/** PUT /api/streams: the id plus any fields to change; fields left out keep their value. */
export const StreamUpdate = streamFields.partial().extend({ id: Id });
export type StreamUpdate = z.infer<typeof StreamUpdate>;

export const STREAM_SORTS = ['newest', 'name', 'quality'] as const;
export type StreamSort = (typeof STREAM_SORTS)[number];

/**
 * GET /api/streams: without paging parameters, the spec's whole list; with any of `limit`,
 * `cursor`, `q`, `category`, `sort` a page of a pool of thousands, searched, filtered and
 * sorted by the server (keyset cursor: pages stay fast however deep).
 */
export const StreamListQuery = z.object({
  active: booleanQuery.optional(),
  limit: z.coerce.number().int('limit must be a whole number').min(1, 'limit must be between 1 and 200').max(200, 'limit must be between 1 and 200').optional(),
  cursor: z.string().max(500, 'cursor is not valid').regex(/^[\w-]+$/, 'cursor is not valid').optional(),
  q: z.string().trim().max(100, 'q must be at most 100 characters').optional(),
  category: z.enum(CATEGORIES, { error: `category must be one of ${CATEGORIES.join(', ')}` }).optional(),
  sort: z.enum(STREAM_SORTS, { error: `sort must be one of ${STREAM_SORTS.join(', ')}` }).optional(),
});
export type StreamListQuery = z.output<typeof StreamListQuery>;

export interface StreamPageDto {
  streams: StreamDto[];
  /** Give it back as `cursor` for the next page; null on the last page. */
  next_cursor: string | null;
  /** How many streams match the search and filters (all pages), up to 1,000; on the first page only, null after. */
  total: number | null;
  /** More than `total` match (the count stops at 1,000). */
  total_capped: boolean;
}


export interface StreamDto {
  id: number;
  name: string;
  url: string;
  fallback_url: string | null;
  description: string | null;
  category: Category;
  quality: Quality;
  active: boolean;
  created_at: string;
  updated_at: string;
  /** 0-100; null means not analysed. */
  quality_score: number | null;
  quality_assessed_at: string | null;
  /** 0-1 */
  quality_confidence: number | null;
  location_name: string | null;
  latitude: number | null;
  longitude: number | null;
  timezone: string | null;
  /** unknown, live, degraded or offline: from its analyses and its players (src/shared/quality/health.ts). */
  health: HealthState;
  /** The two halves fused into quality_score: the automatic analysis (0–100) and the human raters (0–5). */
  auto_score: number | null;
  human_score: number | null;
  human_confidence: number | null;
  human_count: number;
  /** Headers a player must send (from a playlist); null when none. A browser cannot send them. */
  request_headers: RequestHeaders | null;
  /** Why the system keeps it inactive (it needs headers); null otherwise. */
  inactive_reason: string | null;
}
