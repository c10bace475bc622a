/** What every part of the REST contract shares: ids, the text rule, the answers every route may give. */
import { z } from 'zod';

import { isValidTimezone } from '../streams/location.ts';

export { blankAsNull, line, multiline, name, text, textProblem, TEXT_PATTERNS, VISIBLE_RULE, type TextKind } from './text.ts';

/**
 * Schemas the OpenAPI document keeps once under components/schemas (a field refers to them with
 * `$ref`): the time zones this server knows, as IANA names.
 */
export const DOCUMENT_COMPONENTS: Record<string, Record<string, unknown>> = {
  get TimeZone() {
    const zones = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
    return { type: 'string', enum: [...new Set(['UTC', ...zones])].filter(isValidTimezone).sort(), description: 'An IANA time zone name' };
  },
};

/** The largest id (PostgreSQL `integer`): 2³¹ − 1. */
export const MAX_ID = 2_147_483_647;

type JsonSchema = Record<string, unknown>;
const DOCUMENTED = new WeakMap<object, JsonSchema>();

/**
 * States what a schema accepts in JSON Schema terms where zod's own output would say it
 * differently: an id in a path or query is parsed from text but is, to a caller, an integer in
 * a range. The OpenAPI builder puts `json` in place of the generated schema.
 */
export function documentedAs<T extends z.ZodType>(schema: T, json: JsonSchema): T {
  DOCUMENTED.set(schema, json);
  return schema;
}

/** The JSON Schema a schema was documented as (documentedAs), if any. */
export const documentedSchemaOf = (schema: object): JsonSchema | undefined => DOCUMENTED.get(schema);

const ID_RULE = `Expected an id: a whole number from 1 to ${MAX_ID}`;

/** A database id in a JSON body: an integer from 1 to 2³¹ − 1, never a string. */
export const Id = z.number({ error: ID_RULE }).int(ID_RULE).min(1, ID_RULE).max(MAX_ID, ID_RULE);

/**
 * A database id in a path or query: digits only — no sign, space, leading zero, exponent or hex —
 * from 1 to 2³¹ − 1.
 */
export const PathId = documentedAs(
  z.string({ error: ID_RULE }).regex(/^[1-9][0-9]{0,9}$/, ID_RULE).transform(Number).pipe(Id),
  { type: 'integer', minimum: 1, maximum: MAX_ID },
);

/**
 * A whole number in a query: plain digits (no sign, space, exponent or hex), within the range;
 * `fallback` when the parameter is absent.
 */
export function queryInt(min: number, max: number, rule = `Expected a whole number from ${min} to ${max}`) {
  const schema = z.string({ error: rule }).regex(/^(0|[1-9][0-9]{0,9})$/, rule).transform(Number).pipe(z.number().int().min(min, rule).max(max, rule));
  const json = { type: 'integer', minimum: min, maximum: max };
  return Object.assign(documentedAs(schema, json), {
    /** The same, with a value when absent (stated as the parameter's default). */
    withDefault: (fallback: number) => documentedAs(schema.default(fallback), { ...json, default: fallback }),
  });
}

/** A number in a query, written as JSON writes numbers, within the range. */
export function queryNumber(min: number, max: number, label: string) {
  const rule = `${label} must be a number between ${min} and ${max}`;
  return documentedAs(
    z
      .string({ error: rule })
      // JavaScript writes numbers down to 1e-7 in full: up to 6 zeros and 17 digits after the point.
      .regex(/^-?(0|[1-9][0-9]{0,15})(\.[0-9]{1,30})?([eE][+-]?[0-9]{1,3})?$/, rule)
      .transform(Number)
      .pipe(z.number().min(min, rule).max(max, rule)),
    { type: 'number', minimum: min, maximum: max },
  );
}

export const IdBody = z.object({ id: Id });
export type IdBody = z.infer<typeof IdBody>;

/** An IANA time zone name (`Europe/Berlin`); `message` when the server does not know it. */
export const TimeZone = (message: string) => documentedAs(z.string().trim().refine(isValidTimezone, message), { $ref: '#/components/schemas/TimeZone' });

/**
 * The addresses the document promises to take: absolute http(s), a host whose last label starts
 * with a letter, an optional port, and visible ASCII after it. Fields may take more (an IP
 * address, a scheme-less platform link) and say so in their description.
 */
export const HTTP_URL_PATTERN = '^[Hh][Tt][Tt][Pp][Ss]?://([A-Za-z0-9-]+\\.)*[A-Za-z][A-Za-z0-9-]*(:[0-9]{1,4})?([/?#][!-~]*)?$';

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
