/**
 * Property-based fuzzing of every operation of the served OpenAPI document, as anonymous, viewer
 * and admin (in that order: the admin's writes cannot take the others' credentials away, and the
 * admin acts through ADMIN_API_TOKEN, which no call can revoke or disable).
 *
 * For each operation: inputs the document calls valid (tests/support/schema-arbitrary.ts), then
 * the same inputs with one field at a time made hostile — every string field gets a NUL, a lone
 * surrogate, zero-width characters only, a bidi override, a C1 control and 100,000 characters;
 * every integer `" 1"`, `"1e3"`, `"0x10"`, 0, −1, 2³¹, 1.5; every body a non-object and deep
 * nesting. Whether each input is valid is judged by the document itself (Ajv), and it holds when:
 * - no answer is a 5xx, and every answer (status and body) is one the document declares;
 * - an input the document calls valid is never refused with a 400 — unless the refusal is a rule
 *   the operation's document states in words (a description), as JSON Schema cannot;
 * - an input the document calls invalid is refused with a 4xx (or 401/403 before validation);
 * - a client polling GET /api/scenes every 50 ms meanwhile gets only 200s, and the node never
 *   takes a request for an outage.
 */
import fc from 'fast-check';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/logger.ts';
import { seed } from '../../src/modules/seed/seed.ts';
import { apiRouter } from '../../src/http/stack.ts';
import { MODULES } from '../../src/modules/index.ts';
import { routeTableOnly } from '../../src/modules/runtime.ts';
import { buildOpenApi, openApiPath } from '../../src/http/openapi.ts';
import { ENDPOINTS } from '../../src/shared/api/endpoints.ts';
import type { EndpointSpec } from '../../src/shared/api/contract.ts';
import { denial, type Role } from '../../src/shared/roles.ts';
import { adminHeaders, startTestApp, type TestApp } from '../support/app.ts';
import { responseChecker, type ResponseCheck } from '../support/contract.ts';
import { slotsOf, validValue, wellFormed, withSlot, type ArbitraryContext, type JsonSchema, type Slot } from '../support/schema-arbitrary.ts';

interface Parameter {
  name: string;
  in: 'path' | 'query';
  required: boolean;
  schema: JsonSchema;
}
interface Operation {
  method: string;
  path: string;
  endpoint: EndpointSpec;
  parameters: Parameter[];
  body: JsonSchema | undefined;
  /** Every description in the operation's inputs: the rules it states in words. */
  statedRules: string;
}
interface Input {
  params: Record<string, string>;
  query: Record<string, string>;
  body?: unknown;
  /** The body as sent, when it is not JSON of `body` (a hand-written escape, deep nesting). */
  raw?: string;
}

const ROLE_ORDER: { role: Role | null; label: string }[] = [
  { role: null, label: 'anonymous' },
  { role: 'viewer', label: 'viewer' },
  { role: 'admin', label: 'admin' },
];

/**
 * Per operation and role the caller may call: documented-valid inputs tried. The seed is fixed
 * so a failure can be replayed; FUZZ_SEED and FUZZ_RUNS search wider from a terminal.
 */
const VALID_RUNS = Number(process.env.FUZZ_RUNS ?? 20);
const SEED = Number(process.env.FUZZ_SEED ?? 29);

const HOSTILE_TEXT: [string, string][] = [
  ['a NUL', 'a\u0000b'],
  ['a lone surrogate', 'edge\ud800x'],
  ['zero-width characters only', '\u200b\u200b'],
  ['a bidi override', 'gpj.\u202Eexe'],
  ['a C1 control', 'a\u0085b'],
  ['100,000 characters', 'x'.repeat(100_000)],
];
const HOSTILE_IDS: unknown[] = [' 1', '1e3', '0x10', '1', 0, -1, 2 ** 31, 1.5];
const HOSTILE_URL_IDS = [' 1', '1e3', '0x10', '01', '0', '-1', '2147483648', '1.5'];
/** Bodies of the wrong shape: a client's bug or a probe. */
const HOSTILE_BODIES: [string, string][] = [
  ['an array', '[]'],
  ['a number', '1'],
  ['a string', '"x"'],
  ['null', 'null'],
  ['10,000 nested arrays', `${'['.repeat(10_000)}${']'.repeat(10_000)}`],
  ['10,000 nested objects', `${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}`],
  ['a prototype key', '{"__proto__":{"admin":true},"constructor":{"prototype":{"x":1}}}'],
];

interface Document {
  info: { description: string };
  paths: Record<string, Record<string, { parameters?: Parameter[]; requestBody?: { content: Record<string, { schema: JsonSchema }> } }>>;
  components: { schemas: Record<string, JsonSchema> };
}

/** The operations, read off the router the way the server builds its document (no server needed to name the tests). */
function operationsOf(doc: Document): Operation[] {
  const byRoute = new Map(Object.values(ENDPOINTS as Record<string, EndpointSpec>).map((e) => [`${e.method} ${openApiPath(`/api${e.path}`)}`, e]));
  const out: Operation[] = [];
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, operation] of Object.entries(methods)) {
      const endpoint = byRoute.get(`${method.toUpperCase()} ${path}`);
      if (!endpoint) continue; // the reference pages: not endpoints of the contract
      const body = operation.requestBody?.content['application/json']?.schema;
      out.push({ method: method.toUpperCase(), path, endpoint, parameters: operation.parameters ?? [], body, statedRules: [doc.info.description, ...describedText([operation.parameters, body])].join('\n') });
    }
  }
  return out;
}

const builtDoc = buildOpenApi(apiRouter(routeTableOnly(MODULES)), { version: 'fuzz' }) as unknown as Document;
const operations = operationsOf(builtDoc);
const ctx: ArbitraryContext = { components: builtDoc.components.schemas };

let app: TestApp;
let check: ResponseCheck;
let served: Document;
let credentials: Record<string, Record<string, string>>;
const validators = new Map<JsonSchema, ValidateFunction>();
const ajv = new Ajv2020({ strict: false, allErrors: false });
(addFormats as unknown as (a: Ajv2020) => void)(ajv);
const polled: number[] = [];
let polling: Promise<void> | undefined;
let stopPolling = false;
let sent = 0;

function validator(schema: JsonSchema): ValidateFunction {
  let validate = validators.get(schema);
  if (!validate) {
    validate = ajv.compile({ ...schema, $defs: undefined, components: undefined });
    validators.set(schema, validate);
  }
  return validate;
}

function describedText(schema: unknown, out: string[] = []): string[] {
  // Every description in a schema: the rules it states in words.
  if (Array.isArray(schema)) schema.forEach((s) => describedText(s, out));
  else if (schema && typeof schema === 'object') {
    for (const [key, value] of Object.entries(schema)) {
      if (key === 'description' && typeof value === 'string') out.push(value);
      else describedText(value, out);
    }
  }
  return out;
}

beforeAll(async () => {
  app = await startTestApp({
    jobs: { enabled: false },
    settings: { quality: { tools: { ffmpeg: '/nonexistent/ffmpeg', ffprobe: '/nonexistent/ffprobe' }, sweepCron: null } },
  });
  await seed(app.orm.em.fork(), { demo: true, logger: createLogger('silent') });
  const viewer = await app.request<{ token: string }>('POST', '/api/auth/tokens', { name: 'fuzz viewer', role: 'viewer' });
  credentials = { anonymous: {}, viewer: { authorization: `Bearer ${viewer.body.token}` }, admin: adminHeaders };

  // Answers are judged by the document the server serves; it must name the same operations.
  served = (await (await fetch(`${app.baseUrl}/api/openapi.json`)).json()) as Document;
  ajv.addSchema({ $id: 'nw://doc', components: served.components });
  check = responseChecker(served as unknown as Parameters<typeof responseChecker>[0]);

  // The client that must not notice any of this.
  polling = (async () => {
    while (!stopPolling) {
      polled.push((await fetch(`${app.baseUrl}/api/scenes`)).status);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  })();
});

afterAll(async () => {
  stopPolling = true;
  await polling;
  await app?.close();
});

/** The document's refs, made absolute for the Ajv instance that holds the components. */
const absolute = (schema: JsonSchema): JsonSchema => JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"nw://doc#/components/')) as JsonSchema;

/** Whether the document calls this input valid. */
function documentAccepts(operation: Operation, input: Input): boolean {
  for (const parameter of operation.parameters) {
    const text = parameter.in === 'path' ? input.params[parameter.name] : input.query[parameter.name];
    if (text === undefined) {
      if (parameter.required) return false;
      continue;
    }
    const schema = absolute(parameter.schema);
    const types = [schema.type].flat();
    let value: unknown = text;
    if (types.includes('integer')) value = /^-?(0|[1-9][0-9]*)$/.test(text) ? Number(text) : text;
    else if (types.includes('number')) value = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$/.test(text) ? Number(text) : text;
    if (!validator(schema)(value)) return false;
  }
  if (operation.body) {
    let body = input.body;
    if (input.raw !== undefined) {
      try {
        body = JSON.parse(input.raw);
      } catch {
        return false;
      }
    }
    if (!validator(absolute(operation.body))(body)) return false;
    // The API takes I-JSON (RFC 7493, its description says): no string with an unpaired surrogate.
    if (!everyString(body, wellFormed)) return false;
  }
  return true;
}

/** Every string (keys too) passes `test`; iterative, for bodies nested 10,000 deep. */
function everyString(root: unknown, test: (text: string) => boolean): boolean {
  const stack: unknown[] = [root];
  while (stack.length) {
    const value = stack.pop();
    if (typeof value === 'string') {
      if (!test(value)) return false;
    } else if (Array.isArray(value)) stack.push(...value);
    else if (value && typeof value === 'object') {
      for (const [k, v] of Object.entries(value)) {
        if (!test(k)) return false;
        stack.push(v);
      }
    }
  }
  return true;
}

/** Percent-encodes text for a URL, a lone surrogate as its WTF-8 bytes (encodeURIComponent refuses it). */
function encode(text: string): string {
  if (wellFormed(text)) return encodeURIComponent(text);
  return [...text].map((char) => (wellFormed(char) ? encodeURIComponent(char) : `%${[0xed, 0xa0 | ((char.charCodeAt(0) >> 6) & 0x0f), 0x80 | (char.charCodeAt(0) & 0x3f)].map((b) => b.toString(16).toUpperCase()).join('%')}`)).join('');
}

function urlOf(operation: Operation, input: Input): string {
  const path = operation.path.replace(/\{(\w+)\}/g, (_m, name: string) => encode(input.params[name] ?? ''));
  const query = Object.entries(input.query)
    .map(([k, v]) => `${encodeURIComponent(k)}=${encode(v)}`)
    .join('&');
  return query ? `${path}?${query}` : path;
}

/** A documented-valid input of the operation, as the URL and body carry it. */
function inputArbitrary(operation: Operation): fc.Arbitrary<Input> {
  const params: Record<string, fc.Arbitrary<unknown>> = {};
  const query: Record<string, fc.Arbitrary<unknown>> = {};
  const queryRequired: string[] = [];
  for (const p of operation.parameters) {
    const value = validValue(p.schema, ctx);
    if (p.in === 'path') params[p.name] = value;
    else {
      query[p.name] = value;
      if (p.required) queryRequired.push(p.name);
    }
  }
  const asText = (values: Record<string, unknown>) => Object.fromEntries(Object.entries(values).map(([k, v]) => [k, String(v)]));
  return fc
    .record({
      params: fc.record(params),
      query: fc.record(query, { requiredKeys: queryRequired }),
      body: operation.body ? validValue(operation.body, ctx) : fc.constant(undefined),
    })
    .map((r) => ({ params: asText(r.params), query: asText(r.query), ...(operation.body ? { body: r.body } : {}) }));
}

async function send(operation: Operation, input: Input, headers: Record<string, string>): Promise<{ status: number; body: unknown; url: string }> {
  const url = urlOf(operation, input);
  const payload = input.raw ?? (operation.body ? JSON.stringify(input.body) : undefined);
  const res = await fetch(`${app.baseUrl}${url}`, {
    method: operation.method,
    headers: { ...headers, ...(payload !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(payload !== undefined ? { body: payload } : {}),
  });
  sent++;
  const text = await res.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    // not JSON
  }
  const problem = check(operation.method, url, res.status, res.headers.get('content-type'), body);
  if (problem) throw new Error(`${problem}\n  input: ${JSON.stringify(input).slice(0, 400)}`);
  return { status: res.status, body, url };
}

/** What an answer may be for this input, by the document and the caller's role. */
function judge(operation: Operation, role: Role | null, input: Input, answer: { status: number; body: unknown }): string | null {
  const { status } = answer;
  const where = `${operation.method} ${operation.path} as ${role ?? 'anonymous'} → ${status} ${JSON.stringify(answer.body).slice(0, 300)}\n  input: ${JSON.stringify(input).slice(0, 300)}`;
  if (status >= 500) return `a ${status}: ${where}`;
  const denied = denial(operation.endpoint.access, role);
  if (denied) return status === denied.status ? null : `expected ${denied.status} before anything else: ${where}`;
  const accepted = documentAccepts(operation, input);
  if (!accepted) return status >= 400 && status < 500 ? null : `a request the document calls invalid was accepted: ${where}`;
  if (status === 400) {
    // What was refused: each field's reason, or the one sentence after its "field: ".
    const refusal = answer.body as { error: string; details?: { message: string }[] };
    const reasons = refusal.details?.map((d) => d.message) ?? [refusal.error.replace(/^[\w.]+: /, '')];
    const stated = (reason: string) => operation.statedRules.includes(reason) || operation.statedRules.includes(reason.replace(/ \(.*\)$/, ''));
    if (!reasons.every(stated)) return `a request the document calls valid was refused with a 400 for a rule it does not state: ${where}`;
  }
  return null;
}

/** Sends one input and judges the answer: null, or what is wrong (a contract drift included). */
async function trial(operation: Operation, role: Role | null, input: Input, headers: Record<string, string>): Promise<string | null> {
  try {
    return judge(operation, role, input, await send(operation, input, headers));
  } catch (error) {
    return `${operation.method} ${operation.path} as ${role ?? 'anonymous'}: ${error instanceof Error ? error.message : String(error)}`;
  }
}

/** The inputs made hostile, one field at a time, from one valid input. */
function hostileInputs(operation: Operation, base: Input): [string, Input][] {
  const out: [string, Input][] = [];
  for (const p of operation.parameters) {
    const types = [p.schema.type].flat();
    const values = types.includes('integer') || types.includes('number') ? HOSTILE_URL_IDS.map((v) => [`${p.name} = ${JSON.stringify(v)}`, v] as const) : HOSTILE_TEXT.map(([what, v]) => [`${p.name} with ${what}`, v] as const);
    for (const [label, value] of values) {
      const part = p.in === 'path' ? 'params' : 'query';
      out.push([label, { ...base, [part]: { ...base[part], [p.name]: value } }]);
    }
  }
  if (operation.body) {
    const slots: Slot[] = slotsOf(operation.body, ctx);
    for (const slot of slots) {
      const name = slot.path.join('.');
      const values: [string, unknown][] =
        slot.kind === 'string' ? HOSTILE_TEXT.map(([what, v]) => [`${name} with ${what}`, v]) : slot.kind === 'integer' ? HOSTILE_IDS.map((v) => [`${name} = ${JSON.stringify(v)}`, v]) : [[`${name} = "x"`, 'x']];
      for (const [label, value] of values) out.push([label, { ...base, body: withSlot(base.body, slot.path, value) }]);
    }
    for (const [what, raw] of HOSTILE_BODIES) out.push([`a body that is ${what}`, { ...base, raw }]);
  }
  return out;
}

describe.each(ROLE_ORDER)('every operation, as $label', ({ role, label }) => {
  it.each(operations.map((operation, index) => [`${operation.method} ${operation.path}`, operation, index] as const))('%s', async (_name, operation, index) => {
    const headers = credentials[label]!;
    const may = denial(operation.endpoint.access, role) === null;
    const problems: string[] = [];
    await fc.assert(
      fc.asyncProperty(inputArbitrary(operation), async (input) => {
        const problem = await trial(operation, role, input, headers);
        if (problem) problems.push(problem);
        return problem === null;
      }),
      { numRuns: may ? VALID_RUNS : 2, seed: SEED * (index + 1), endOnFailure: true },
    ).catch(() => undefined);
    const [base] = fc.sample(inputArbitrary(operation), { numRuns: 1, seed: SEED * 7 * (index + 1) });
    for (const [what, input] of may ? hostileInputs(operation, base!) : hostileInputs(operation, base!).slice(0, 3)) {
      const problem = await trial(operation, role, input, headers);
      if (problem) problems.push(`${what}: ${problem}`);
    }
    if (problems.length && process.env.FUZZ_REPORT) (await import('node:fs')).appendFileSync(process.env.FUZZ_REPORT, `${problems.join('\n\n')}\n\n`);
    expect(problems, `${operation.method} ${operation.path}`).toEqual([]);
  });
});

describe('meanwhile', () => {
  it('covers every operation of the contract, and the served document names the same', () => {
    expect(new Set(operations.map((o) => `${o.method} ${o.path}`)).size).toBe(Object.keys(ENDPOINTS).length);
    expect(operationsOf(served).map((o) => `${o.method} ${o.path}`)).toEqual(operations.map((o) => `${o.method} ${o.path}`));
  });

  it('a client polling GET /api/scenes got only 200s, and no request was taken for an outage', () => {
    expect(sent).toBeGreaterThan(3000);
    expect(polled.length).toBeGreaterThan(20);
    expect(polled.filter((s) => s !== 200)).toEqual([]);
    expect(app.app.availability.available).toBe(true);
    console.log(`fuzz: ${sent} requests over ${operations.length} operations as anonymous, viewer and admin; GET /api/scenes polled ${polled.length} times`);
  });
});
