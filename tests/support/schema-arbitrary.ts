/**
 * Values a JSON Schema (2020-12, as the served OpenAPI document writes it) calls valid, as
 * fast-check arbitraries: what a client generated from the document may send. Covers the
 * keywords the document uses — type (and type lists), enum, const, $ref to components, anyOf,
 * oneOf, properties / required / additionalProperties, items, min/maxItems, string length,
 * pattern, format date-time, integer and number ranges — and refuses any other keyword loudly,
 * so the document cannot grow a rule this generator silently ignores.
 */
import fc from 'fast-check';

export type JsonSchema = Record<string, unknown>;

/** No unpaired UTF-16 surrogate (what I-JSON, RFC 7493, asks of every string). */
export const wellFormed = (text: string): boolean => !/\p{Cs}/u.test(text);

const KNOWN = new Set([
  'type', 'enum', 'const', '$ref', 'anyOf', 'oneOf', 'properties', 'required', 'additionalProperties', 'items', 'minItems', 'maxItems',
  'minLength', 'maxLength', 'pattern', 'format', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'default', 'description',
  'propertyNames', 'title', 'examples',
]);

/** The longest text generated for a field (a field's maxLength of 10,000 needs no 10,000-long examples). */
const LONGEST = 120;

export interface ArbitraryContext {
  components: Record<string, JsonSchema>;
}

function resolve(schema: JsonSchema, ctx: ArbitraryContext): JsonSchema {
  const ref = schema.$ref;
  if (typeof ref !== 'string') return schema;
  const name = /^#\/components\/schemas\/(.+)$/.exec(ref)?.[1];
  const target = name ? ctx.components[name] : undefined;
  if (!target) throw new Error(`unresolvable $ref ${ref}`);
  return resolve(target, ctx);
}

function stringArbitrary(schema: JsonSchema): fc.Arbitrary<string> {
  const min = typeof schema.minLength === 'number' ? schema.minLength : 0;
  const max = Math.min(typeof schema.maxLength === 'number' ? schema.maxLength : LONGEST, Math.max(LONGEST, min));
  const fits = (s: string) => s.length >= min && s.length <= max;
  if (schema.format === 'date-time') {
    return fc.date({ min: new Date('2001-01-01T00:00:00Z'), max: new Date('2099-12-31T00:00:00Z'), noInvalidDate: true }).map((d) => d.toISOString());
  }
  if (typeof schema.pattern === 'string') {
    const re = new RegExp(schema.pattern, 'u');
    // From the pattern itself (mostly ASCII), and now and then any Unicode text the pattern allows.
    return fc
      .oneof(
        { weight: 4, arbitrary: fc.stringMatching(new RegExp(schema.pattern)) },
        { weight: 1, arbitrary: fc.string({ unit: 'grapheme', minLength: min, maxLength: Math.min(max, 40) }) },
      )
      .filter((s) => wellFormed(s) && re.test(s) && fits(s));
  }
  return fc.string({ unit: 'grapheme', minLength: min, maxLength: max }).filter(fits);
}

/** An arbitrary of the values `schema` calls valid. */
export function validValue(schemaIn: JsonSchema, ctx: ArbitraryContext): fc.Arbitrary<unknown> {
  const schema = resolve(schemaIn, ctx);
  for (const key of Object.keys(schema)) if (!KNOWN.has(key)) throw new Error(`the generator does not know the keyword "${key}"`);
  if ('const' in schema) return fc.constant(schema.const);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
  const branches = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  // anyOf beside properties, each branch only a `required`: one of those sets is required too.
  if (branches && schema.properties) {
    return fc.constantFrom(...branches).chain((branch) => {
      if (Object.keys(branch).some((k) => k !== 'required')) throw new Error('anyOf beside properties must only list required sets');
      return objectArbitrary({ ...schema, required: [...new Set([...((schema.required as string[]) ?? []), ...((branch.required as string[]) ?? [])])] }, ctx);
    });
  }
  if (branches) return fc.oneof(...branches.map((b) => validValue(b, ctx)));
  if (Array.isArray(schema.type)) return fc.oneof(...(schema.type as string[]).map((type) => validValue({ ...schema, type }, ctx)));
  switch (schema.type) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer': {
      const min = typeof schema.minimum === 'number' ? schema.minimum : typeof schema.exclusiveMinimum === 'number' ? schema.exclusiveMinimum + 1 : -(2 ** 31);
      const max = typeof schema.maximum === 'number' ? schema.maximum : typeof schema.exclusiveMaximum === 'number' ? schema.exclusiveMaximum - 1 : 2 ** 31 - 1;
      return fc.integer({ min, max });
    }
    case 'number': {
      const min = typeof schema.minimum === 'number' ? schema.minimum : -1e9;
      const max = typeof schema.maximum === 'number' ? schema.maximum : 1e9;
      return fc.double({ min, max, noNaN: true, noDefaultInfinity: true }).map((n) => (Object.is(n, -0) ? 0 : n));
    }
    case 'string':
      return stringArbitrary(schema);
    case 'array': {
      const items = schema.items ? validValue(schema.items as JsonSchema, ctx) : fc.jsonValue({ maxDepth: 2 });
      return fc.array(items, { minLength: (schema.minItems as number) ?? 0, maxLength: Math.min((schema.maxItems as number) ?? 6, 6) });
    }
    case 'object':
      return objectArbitrary(schema, ctx);
    case undefined:
      return fc.jsonValue({ maxDepth: 2 });
    default:
      throw new Error(`unknown type ${String(schema.type)}`);
  }
}

function objectArbitrary(schema: JsonSchema, ctx: ArbitraryContext): fc.Arbitrary<Record<string, unknown>> {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((schema.required as string[] | undefined) ?? []);
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [name, property] of Object.entries(properties)) model[name] = validValue(property, ctx);
  const names = Object.keys(model);
  if (names.length === 0) {
    // A free-form object (a record): a few keys of any JSON.
    return schema.additionalProperties === false ? fc.constant({}) : fc.dictionary(fc.string({ maxLength: 10 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 });
  }
  return fc.record(model, { requiredKeys: names.filter((n) => required.has(n)) });
}

/** Every place in a schema where a client writes text, an integer, or a value at all: for hostile inputs. */
export interface Slot {
  /** Property names from the top (array items as 0). */
  path: (string | number)[];
  kind: 'string' | 'integer' | 'number' | 'other';
}

export function slotsOf(schemaIn: JsonSchema, ctx: ArbitraryContext, path: (string | number)[] = [], depth = 0): Slot[] {
  if (depth > 6) return [];
  const schema = resolve(schemaIn, ctx);
  const types = new Set(Array.isArray(schema.type) ? (schema.type as string[]) : [schema.type as string]);
  const out: Slot[] = [];
  if (path.length > 0) {
    if (types.has('string') && !schema.enum && !('const' in schema)) out.push({ path, kind: 'string' });
    else if (types.has('integer')) out.push({ path, kind: 'integer' });
    else if (types.has('number')) out.push({ path, kind: 'number' });
    else out.push({ path, kind: 'other' });
  }
  for (const [name, property] of Object.entries((schema.properties ?? {}) as Record<string, JsonSchema>)) out.push(...slotsOf(property, ctx, [...path, name], depth + 1));
  if (schema.items) out.push(...slotsOf(schema.items as JsonSchema, ctx, [...path, 0], depth + 1));
  for (const branch of ((schema.anyOf ?? schema.oneOf ?? []) as JsonSchema[])) {
    for (const slot of slotsOf(branch, ctx, path, depth + 1)) if (!out.some((o) => o.path.join('.') === slot.path.join('.') && o.kind === slot.kind)) out.push(slot);
  }
  return out;
}

/** `value` with `path` set to `replacement` (objects and arrays on the way are made as needed). */
export function withSlot(value: unknown, path: (string | number)[], replacement: unknown): unknown {
  if (path.length === 0) return replacement;
  const [head, ...rest] = path;
  if (typeof head === 'number') {
    const array = Array.isArray(value) ? [...(value as unknown[])] : [];
    array[0] = withSlot(array[0], rest, replacement);
    return array;
  }
  const object = typeof value === 'object' && value !== null && !Array.isArray(value) ? { ...(value as Record<string, unknown>) } : {};
  object[head!] = withSlot(object[head!], rest, replacement);
  return object;
}
