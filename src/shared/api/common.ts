/** What every part of the REST contract shares: ids, clean text, the answers every route may give. */
import { z } from 'zod';

const MAX_INT = 2_147_483_647;

/** A database id: a positive 32-bit integer, given as a number or as digits. */
export const Id = z
  .union([z.number(), z.string().trim().regex(/^\d{1,10}$/, 'Expected a numeric id').transform(Number)])
  .pipe(z.number({ error: 'Expected a numeric id' }).int('Expected a whole number').min(1).max(MAX_INT));

/** Text without control characters (PostgreSQL refuses NUL; the rest is never wanted in a label). */
export const cleanText = (max: number) =>
  z
    .string()
    .trim()
    .max(max, `Must be at most ${max} characters`)
    .refine((s) => !/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/.test(s), 'Contains control characters');

/** Optional free text: empty or blank becomes null. */
export const optionalText = (max: number) =>
  z.preprocess((v) => (typeof v === 'string' && v.trim() === '' ? null : v), cleanText(max).nullable().optional());

export const IdBody = z.object({ id: Id });
export type IdBody = z.infer<typeof IdBody>;

/** `?active=true|false` and the like. */
export const booleanQuery = z.enum(['true', 'false']).transform((v) => v === 'true');

/** A moment, as every answer writes it: ISO 8601 in UTC with milliseconds. */
export const IsoDate = z.iso.datetime();

export const SuccessDto = z.strictObject({ success: z.literal(true) });
export type SuccessDto = z.output<typeof SuccessDto>;

/** Headers a stream's player must send (a playlist's user-agent and referrer). */
export const RequestHeadersDto = z.strictObject({ user_agent: z.string().nullable().optional(), referrer: z.string().nullable().optional() });

/** Every error answer: a readable sentence, plus the field problems of a 400. */
export interface ErrorDto {
  error: string;
  details?: { path: string; message: string }[];
  /** Raters' next item: nothing is waiting (a 404 raters expect, not a failure). */
  queueEmpty?: true;
}
