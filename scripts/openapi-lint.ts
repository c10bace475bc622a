/**
 * `npm run check`'s contract check: builds the OpenAPI document from the API router (no
 * database: routers only keep their dependencies until a request comes) and lints it with
 * Redocly's `recommended` rules — every warning counts. `--write <file>` also saves the document.
 */
import { writeFile } from 'node:fs/promises';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { apiRouter } from '../src/http/stack.ts';
import { buildOpenApi } from '../src/http/openapi.ts';
import { MODULES } from '../src/modules/index.ts';
import { routeTableOnly } from '../src/modules/runtime.ts';

const doc = buildOpenApi(apiRouter(routeTableOnly(MODULES)), { version: '0.0.0-lint' });
const source = JSON.stringify(doc, null, 2);

const out = process.argv.indexOf('--write');
if (out !== -1 && process.argv[out + 1]) await writeFile(process.argv[out + 1]!, source);

const problems = await lintFromString({ source, absoluteRef: 'openapi.json', config: await createConfig({ extends: ['recommended'] }) });
for (const problem of problems) {
  const where = problem.location[0]?.pointer ?? '';
  console.error(`${problem.severity} ${problem.ruleId}: ${problem.message} (${where})`);
}
if (problems.length > 0) {
  console.error(`OpenAPI lint: ${problems.length} problem(s) in the document /api/openapi.json serves`);
  process.exit(1);
}
console.log(`OpenAPI lint: ${Object.keys(doc.paths as object).length} paths, recommended rules, no problems`);
