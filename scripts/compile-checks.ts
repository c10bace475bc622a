/**
 * `npm run compile-checks`: the checks screens run on data they kept themselves (proof of play in
 * localStorage), compiled from the shared contract's zod schemas, so a screen checks exactly what
 * the server checks and carries no zod. The schema stays the one statement of the shape:
 * tests/unit/compiled-checks.test.ts fails when a compiled check is out of date, and when one
 * disagrees with its schema's own parse (hand-picked values and thousands of generated ones).
 *
 * Why not Ajv's standalone code: it builds error reports, and for one record it came to 0.9 KB
 * gzip in every screen's code (bench:wall counts each one's JavaScript); a check that only says
 * yes or no is one expression. This compiler knows the few JSON Schema keywords those schemas
 * use (z.toJSONSchema's output) and refuses any other, so it never passes what it cannot check.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { PlayRecord } from '../src/shared/api/play-record.ts';

interface Check {
  /** The exported predicate. */
  name: string;
  schema: z.ZodType;
  /** The type it narrows to, and the shared file that exports it. */
  type: string;
  typeFrom: string;
  /** Its file under src/shared/checks/. */
  file: string;
}

export const CHECKS: readonly Check[] = [{ name: 'isPlayRecord', schema: PlayRecord, type: 'PlayRecord', typeFrom: '../api/play-record.ts', file: 'play-record.check.ts' }];

export const CHECKS_DIR = path.resolve(import.meta.dirname, '../src/shared/checks');

type Schema = Record<string, unknown>;

/** The keywords each kind of schema may carry; any other is refused. */
const KNOWN: Record<string, readonly string[]> = {
  object: ['type', 'properties', 'required', 'additionalProperties'],
  integer: ['type', 'minimum', 'maximum'],
  number: ['type', 'minimum', 'maximum'],
  null: ['type'],
  boolean: ['type'],
  anyOf: ['anyOf'],
};

/** A JavaScript expression that is true exactly when `value` (an expression) matches `schema`. */
export function expressionFor(schema: Schema, value: string, where = '#'): string {
  const kind = 'anyOf' in schema ? 'anyOf' : String(schema.type);
  const known = KNOWN[kind];
  if (!known) throw new Error(`${where}: a check cannot be compiled from type ${JSON.stringify(schema.type)}`);
  const unknown = Object.keys(schema).filter((k) => !known.includes(k) && k !== '$schema');
  if (unknown.length > 0) throw new Error(`${where}: a check cannot be compiled from ${unknown.join(', ')}`);
  const bounds = (v: string) => [schema.minimum !== undefined ? `${v} >= ${Number(schema.minimum)}` : '', schema.maximum !== undefined ? `${v} <= ${Number(schema.maximum)}` : ''].filter(Boolean);
  switch (kind) {
    case 'anyOf':
      return `(${(schema.anyOf as Schema[]).map((s, i) => expressionFor(s, value, `${where}/anyOf/${i}`)).join(' || ')})`;
    case 'null':
      return `${value} === null`;
    case 'boolean':
      return `typeof ${value} === "boolean"`;
    case 'integer':
      return [`Number.isInteger(${value})`, ...bounds(value)].join(' && ');
    case 'number':
      return [`Number.isFinite(${value})`, ...bounds(value)].join(' && ');
    default: {
      if (schema.additionalProperties !== false) throw new Error(`${where}: an object check needs additionalProperties: false`);
      const properties = (schema.properties ?? {}) as Record<string, Schema>;
      const required = new Set((schema.required ?? []) as string[]);
      const names = Object.keys(properties);
      const fields = names.map((name) => {
        const field = `${value}[${JSON.stringify(name)}]`;
        const check = `(${expressionFor(properties[name]!, field, `${where}/properties/${name}`)})`;
        return required.has(name) ? `${field} !== undefined && ${check}` : `(${field} === undefined || ${check})`;
      });
      return [
        `typeof ${value} === "object" && ${value} !== null && !Array.isArray(${value})`,
        `Object.keys(${value}).every((k) => ${names.length ? names.map((n) => `k === ${JSON.stringify(n)}`).join(' || ') : 'false'})`,
        ...fields,
      ].join(' && ');
    }
  }
}

/** The source of one compiled check: from the schema as input (what its parse accepts; an object that is not strict strips keys it does not know, and is refused here). */
export function compileCheck(check: Check): string {
  return [
    `// Compiled by scripts/compile-checks.ts from the schema ${check.type} (${check.typeFrom.replace('../', 'src/shared/')}):`,
    '// do not edit, run `npm run compile-checks`. No zod, no library: one expression.',
    `import type { ${check.type} } from '${check.typeFrom}';`,
    '',
    `/** Whether \`value\` is a ${check.type}, exactly as the contract's schema says. */`,
    `export function ${check.name}(value: unknown): value is ${check.type} {`,
    '  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- what it is, the expression checks',
    '  const v = value as any;',
    `  return ${expressionFor(z.toJSONSchema(check.schema, { target: 'draft-7', io: 'input' }) as Schema, 'v')};`,
    '}',
    '',
  ].join('\n');
}

if (import.meta.main) {
  for (const check of CHECKS) writeFileSync(path.join(CHECKS_DIR, check.file), compileCheck(check));
  console.log(`compiled ${CHECKS.length} check(s) into ${path.relative(process.cwd(), CHECKS_DIR)}`);
}
