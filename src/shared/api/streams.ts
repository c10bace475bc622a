/** Streams: the pool every scene draws from (spec §3, §5). */
import { z } from 'zod';
import { CATEGORIES, DEFAULTS, LIMITS, QUALITIES, type Category, type Quality } from '../constants.ts';
import { isValidTimezone } from '../streams/location.ts';
import { toAbsoluteUrl } from '../streams/url.ts';
import { booleanQuery, cleanText, Id, optionalText } from './common.ts';

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

export const StreamListQuery = z.object({ active: booleanQuery.optional() });


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
}
