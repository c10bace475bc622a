/**
 * `npm run compile-checks`: the checks screens run on data they kept themselves (proof of play in
 * localStorage), compiled from the shared contract's zod schemas into standalone validators
 * (Ajv's standalone code: plain JavaScript, no library at run time), so a screen's code checks
 * exactly what the server checks and carries no zod. The schema stays the one statement of the
 * shape; tests/unit/compiled-checks.test.ts fails when a compiled check is out of date, and when
 * one disagrees with its schema.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv } from 'ajv';
import standalone from 'ajv/dist/standalone/index.js';
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

/** The source of one compiled check. */
export function compileCheck(check: Check): string {
  const ajv = new Ajv({ code: { source: true, esm: true }, messages: false, strict: true });
  const validate = ajv.compile(z.toJSONSchema(check.schema, { target: 'draft-7' }));
  // Ajv writes the whole validator on one line; it imports nothing for these keywords (checked below).
  const code = standalone.default(ajv, validate).replace(/^"use strict";/, '').replace(/export const validate = (\w+);export default \1;/, '');
  if (/\brequire\(|\bimport\b/.test(code)) throw new Error(`${check.name}: the compiled check needs Ajv's run time; keep its schema to keywords that need none`);
  return [
    '/* eslint-disable */',
    `// Compiled by scripts/compile-checks.ts from the schema ${check.type} (${check.typeFrom.replace('../', 'src/shared/')}): do not edit,`,
    '// run `npm run compile-checks`. A standalone Ajv validator: no zod, no library in a screen.',
    '// @ts-nocheck',
    `import type { ${check.type} } from '${check.typeFrom}';`,
    code.trim(),
    `/** Whether \`value\` is a ${check.type} as the contract's schema says. */`,
    `export function ${check.name}(value: unknown): value is ${check.type} {`,
    `  return ${/function (\w+)\(/.exec(code)![1]}(value);`,
    '}',
    '',
  ].join('\n');
}

if (import.meta.main) {
  for (const check of CHECKS) writeFileSync(path.join(CHECKS_DIR, check.file), compileCheck(check));
  console.log(`compiled ${CHECKS.length} check(s) into ${path.relative(process.cwd(), CHECKS_DIR)}`);
}
