/**
 * The REST contract under /api: zod schemas for every request (the server parses with them,
 * the web forms validate with them) and the DTO types of every answer. Field names follow the
 * spec (snake_case), so a client written against the spec still works.
 */
import { z } from 'zod';
import {
  CATEGORIES,
  DEFAULTS,
  LAYOUT_TYPES,
  LIMITS,
  MAX_SCENE_STREAMS,
  QUALITIES,
  SELECTION_ALGORITHMS,
  type Category,
  type DiscoveryPlatform,
  type JobStatus,
  type LayoutType,
  type Quality,
  type SelectionAlgorithm,
  type SubmissionStatus,
} from './constants.ts';
import { isValidTimezone } from './streams/location.ts';
import { toAbsoluteUrl } from './streams/url.ts';

const MAX_INT = 2_147_483_647;

/** A database id: a positive 32-bit integer, given as a number or as digits. */
export const Id = z
  .union([z.number(), z.string().trim().regex(/^\d{1,10}$/, 'Expected a numeric id').transform(Number)])
  .pipe(z.number({ error: 'Expected a numeric id' }).int('Expected a whole number').min(1).max(MAX_INT));

/** Text without control characters (PostgreSQL refuses NUL; the rest is never wanted in a label). */
const cleanText = (max: number) =>
  z
    .string()
    .trim()
    .max(max, `Must be at most ${max} characters`)
    .refine((s) => !/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/.test(s), 'Contains control characters');

/** Optional free text: empty or blank becomes null. */
const optionalText = (max: number) =>
  z.preprocess((v) => (typeof v === 'string' && v.trim() === '' ? null : v), cleanText(max).nullable().optional());

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

export const IdBody = z.object({ id: Id });
export type IdBody = z.infer<typeof IdBody>;

const booleanQuery = z.enum(['true', 'false']).transform((v) => v === 'true');

export const StreamListQuery = z.object({ active: booleanQuery.optional() });
export const SceneListQuery = z.object({ active: booleanQuery.optional() });

/** Up to five slots in order; null marks an empty slot, so slot numbers survive a save. */
export const SlotStreamIds = z
  .array(Id.nullable())
  .max(MAX_SCENE_STREAMS, `A scene holds at most ${MAX_SCENE_STREAMS} streams`)
  .refine((ids) => {
    const present = ids.filter((id) => id !== null);
    return new Set(present).size === present.length;
  }, 'A stream can fill only one slot');

const sceneFields = z.object({
  name: cleanText(LIMITS.sceneName).min(1, 'Scene name is required'),
  description: optionalText(LIMITS.description),
  prompt: optionalText(LIMITS.prompt),
  selection_algorithm: z.enum(SELECTION_ALGORITHMS),
  max_streams: z.number().int().min(1).max(MAX_SCENE_STREAMS),
  layout_type: z.enum(LAYOUT_TYPES),
  active: z.boolean(),
  stream_ids: SlotStreamIds,
});

export const SceneCreate = sceneFields.extend({
  name: z.string({ error: 'Scene name is required' }).pipe(sceneFields.shape.name),
  selection_algorithm: sceneFields.shape.selection_algorithm.default('manual'),
  max_streams: sceneFields.shape.max_streams.default(DEFAULTS.maxStreams),
  layout_type: sceneFields.shape.layout_type.default(DEFAULTS.layoutType),
  active: sceneFields.shape.active.default(true),
  stream_ids: sceneFields.shape.stream_ids.optional(),
});
export type SceneCreate = z.infer<typeof SceneCreate>;

export const SceneUpdate = sceneFields.partial().extend({ id: Id });
export type SceneUpdate = z.infer<typeof SceneUpdate>;

/** `/api/scenes/:idOrSlug`: digits are tried as a slug first, then as an id. */
export const SceneRef = z.object({
  idOrSlug: z.string().trim().min(1).max(LIMITS.sceneName * 2),
});

export const DefaultSceneUpdate = z.object({ scene_id: Id });
export type DefaultSceneUpdate = z.infer<typeof DefaultSceneUpdate>;

export const JobListQuery = z.object({
  limit: z.coerce.number().int().min(1).max(LIMITS.listPage).default(10),
});

// ---- answers ------------------------------------------------------------------------------

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

/** A stream as a scene shows it: its place on the wall, 1..n. */
export interface SceneStreamDto extends StreamDto {
  position: number;
}

export interface SceneDto {
  id: number;
  /** Null when the name has no letters or digits; such a scene is addressed by id. */
  slug: string | null;
  name: string;
  description: string | null;
  prompt: string | null;
  selection_algorithm: SelectionAlgorithm;
  max_streams: number;
  layout_type: LayoutType;
  active: boolean;
  created_at: string;
  updated_at: string;
  /** The manual slots 1-5 (null = empty slot), so an editor can restore them. */
  stream_ids: (number | null)[];
  is_default: boolean;
}

export interface DefaultSceneDto {
  scene_id: number;
  /** Admins only: who last changed it (username, `token:<name>`, `system`) and when. */
  updated_by?: string | null;
  updated_at?: string | null;
}

export interface SuccessDto {
  success: true;
}

export interface DiscoverySourceDto {
  id: number;
  name: string;
  platform: DiscoveryPlatform;
  url: string | null;
  active: boolean;
  created_at: string;
}

export interface DiscoveryJobDto {
  id: number;
  source_id: number | null;
  source_name: string | null;
  status: JobStatus;
  error_message: string | null;
  streams_discovered: number;
  streams_added: number;
  created_at: string;
  finished_at: string | null;
}

export interface DiscoveryStatDto {
  source_id: number;
  source_name: string;
  last_run: string | null;
  total_added: number;
  total_discovered: number;
}

export interface SubmissionDto {
  id: number;
  url: string;
  title: string | null;
  platform: string | null;
  thumbnail: string | null;
  submitted_by: string;
  status: SubmissionStatus;
  created_at: string;
  reviewed_at: string | null;
  review_note: string | null;
  stream_id: number | null;
}

/** Every error answer: a readable sentence, plus the field problems of a 400. */
export interface ErrorDto {
  error: string;
  details?: { path: string; message: string }[];
}

// ---- access -------------------------------------------------------------------------------

export const LoginRequest = z.object({
  username: z.string({ error: 'Username is required' }).trim().min(1, 'Username is required').max(64),
  password: z.string({ error: 'Password is required' }).min(1, 'Password is required').max(1024),
});
export type LoginRequest = z.infer<typeof LoginRequest>;

export const TokenCreate = z.object({ name: cleanText(80).min(1, 'Name is required') });

/** Who the caller is; anonymous callers get `authenticated: false` (not an error). */
export type MeDto = { authenticated: true; username: string; via: 'session' | 'token' } | { authenticated: false };

export interface ApiTokenDto {
  id: number;
  name: string;
  created_at: string;
  last_used_at: string | null;
}

/** The secret is shown once, when the token is created. */
export interface CreatedApiTokenDto extends ApiTokenDto {
  token: string;
}
