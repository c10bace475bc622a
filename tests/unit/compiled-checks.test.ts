/**
 * The checks screens run without zod (src/shared/checks/, compiled by scripts/compile-checks.ts)
 * are their schemas: each compiled file is what the compiler writes from the schema today (so an
 * edited schema with a stale check fails here), and each check says yes exactly where the
 * schema's own parse does, on hand-picked records and on thousands of generated ones.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { CHECKS, CHECKS_DIR, compileCheck, expressionFor } from '../../scripts/compile-checks.ts';
import { PlayRecord } from '../../src/shared/api/play-record.ts';
import { isPlayRecord } from '../../src/shared/checks/play-record.check.ts';

describe('compiled checks', () => {
  it.each(CHECKS.map((c) => [c.file, c] as const))('%s is up to date with its schema (npm run compile-checks)', (file, check) => {
    expect(readFileSync(path.join(CHECKS_DIR, file), 'utf8')).toBe(compileCheck(check));
  });

  it('refuses a schema it cannot check exactly, rather than compile a check that passes too much', () => {
    const compile = (schema: z.ZodType) => compileCheck({ name: 'isX', schema, type: 'X', typeFrom: '../x.ts', file: 'x.check.ts' });
    expect(() => compile(z.strictObject({ name: z.string().max(5) }))).toThrow('#/properties/name: a check cannot be compiled from type "string"');
    expect(() => compile(z.object({ n: z.number() }))).toThrow('#: an object check needs additionalProperties: false');
    expect(() => compile(z.strictObject({ n: z.number().multipleOf(5) }))).toThrow('#/properties/n: a check cannot be compiled from multipleOf');
    expect(() => compile(z.strictObject({ tags: z.array(z.number()) }))).toThrow('a check cannot be compiled from type "array"');
  });

  it('compiles what it knows to one expression', () => {
    const check = new Function('v', `return ${expressionFor({ type: 'object', properties: { a: { type: 'integer', minimum: 1 }, b: { anyOf: [{ type: 'boolean' }, { type: 'null' }] } }, required: ['a'], additionalProperties: false }, 'v')};`) as (v: unknown) => boolean;
    expect([check({ a: 1 }), check({ a: 1, b: null }), check({ a: 1, b: true }), check({ a: 0 }), check({ b: true }), check({ a: 1, c: 1 }), check({ a: 1.5 }), check(null)]).toEqual([true, true, true, false, false, false, false, false]);
  });

  const good = { stream_id: 7, position: 2, scene_id: null, from: 1_700_000_000_000, to: 1_700_000_030_000, playing_ms: 30_000 };
  it.each([
    ['a whole record', good, true],
    ['with a scene', { ...good, scene_id: 3 }, true],
    ['position 6', { ...good, position: 6 }, false],
    ['position 0', { ...good, position: 0 }, false],
    ['a fractional time', { ...good, from: 1.5 }, false],
    ['a negative length of play', { ...good, playing_ms: -1 }, false],
    ['stream id 0', { ...good, stream_id: 0 }, false],
    ['stream id past 2³¹ − 1', { ...good, stream_id: 2 ** 31 }, false],
    ['a number as text', { ...good, stream_id: '7' }, false],
    ['a field missing', { stream_id: 7, position: 2, scene_id: null, from: 1, to: 2 }, false],
    ['a field more', { ...good, extra: 1 }, false],
    ['scene id undefined', { ...good, scene_id: undefined }, false],
    ['NaN', { ...good, to: Number.NaN }, false],
    ['Infinity', { ...good, to: Number.POSITIVE_INFINITY }, false],
    ['null', null, false],
    ['an array', [good], false],
  ])('play record: %s → %s, as the schema says', (_case, value, valid) => {
    expect(PlayRecord.safeParse(value).success).toBe(valid);
    expect(isPlayRecord(value)).toBe(valid);
  });

  it('play record: agrees with the schema on generated records, valid and not', () => {
    const number = fc.oneof(fc.integer({ min: -3, max: 8 }), fc.integer(), fc.double(), fc.constant(2 ** 31), fc.constant(Number.MAX_SAFE_INTEGER + 2));
    const field = fc.oneof(number, fc.constant(null), fc.string(), fc.boolean());
    const record = fc.record(
      { stream_id: field, position: field, scene_id: field, from: field, to: field, playing_ms: field, extra: field },
      { requiredKeys: [] },
    );
    fc.assert(fc.property(record, (value) => isPlayRecord(value) === PlayRecord.safeParse(value).success), { numRuns: 5_000 });
    // And records inside every bound (mostly valid), so agreement is not only on refusals.
    const time = fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER });
    const id = fc.integer({ min: 1, max: 2 ** 31 - 1 });
    const valid = fc.record({ stream_id: id, position: fc.integer({ min: 1, max: 5 }), scene_id: fc.option(id, { nil: null }), from: time, to: time, playing_ms: time });
    fc.assert(fc.property(valid, (value) => isPlayRecord(value) && PlayRecord.safeParse(value).success), { numRuns: 2_000 });
  });
});
