/**
 * The shapes environment variables come in, for src/config.ts and the modules' settings: each
 * parses the raw text (or its absence) into a value, and a bad one names itself at start.
 */
import { z } from 'zod';

/** true/false, 1/0, yes/no, on/off; absent or empty: `fallback`. */
export const flag = (fallback: boolean) =>
  z
    .enum(['true', 'false', '1', '0', 'yes', 'no', 'on', 'off', ''])
    .optional()
    .transform((v) => (v === undefined || v === '' ? fallback : ['true', '1', 'yes', 'on'].includes(v)));

/** Text; absent or empty: undefined. */
export const optionalText = z.string().optional().or(z.literal('').transform(() => undefined));

/** A TCP port. */
export const port = z.coerce.number().int().min(0).max(65535);

/** A whole number in a range; absent: `fallback`. */
export const wholeNumber = (min: number, max: number, fallback: number) => z.coerce.number().int().min(min).max(max).default(fallback);

/** A number in a range; absent: `fallback`. */
export const number = (min: number, max: number, fallback: number) => z.coerce.number().min(min).max(max).default(fallback);

/** An absolute URL; absent: `fallback`. */
export const url = (fallback: string) => z.url().default(fallback);
