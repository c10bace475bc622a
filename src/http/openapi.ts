/**
 * The OpenAPI 3.1 document of /api, read off the endpoints mounted on the router (each route
 * keeps its contract declaration, src/shared/api/contract.ts): method, path, inputs and every
 * answer with its schema (zod 4's own JSON Schema output, draft 2020-12 as OpenAPI 3.1 expects),
 * who may call it, and every error status it can answer. Nothing is written twice, so a route is
 * in the document the moment it exists, exactly as the server answers it.
 */
import type Router from '@koa/router';
import { z } from 'zod';
import { DOCUMENT_COMPONENTS, documentedSchemaOf } from '../shared/api/common.ts';
import type { EndpointSpec, ErrorStatus } from '../shared/api/contract.ts';
import { PROTO_KEY } from './errors.ts';
import { endpointOf } from './route.ts';

type JsonSchema = Record<string, unknown>;

interface Operation {
  operationId: string;
  summary: string;
  tags: string[];
  parameters?: JsonSchema[];
  requestBody?: JsonSchema;
  responses: Record<string, JsonSchema>;
  security: Record<string, string[]>[];
}

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'The input is not valid (the first problem, then each in `details`)',
  401: 'Authentication required',
  403: 'Refused: a cross-site browser write, or not allowed',
  404: 'Not found',
  405: 'Another method is needed for this action',
  409: 'Conflicts with the current state',
  413: 'The request body is too large',
  415: 'The body\'s encoding is not supported',
  422: 'The input could not be processed',
  429: 'Too many requests (see Retry-After)',
  431: "The request's address and headers together are over 16 KB (a query that long is refused by the HTTP parser)",
  500: 'Internal server error',
  503: 'The database is away, or background jobs do not run here (see Retry-After)',
};

function toSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  // Input shapes are what a caller sends (transforms and defaults apply after parsing); output
  // shapes are what the server answers.
  const json = z.toJSONSchema(schema, {
    io,
    unrepresentable: 'any',
    target: 'draft-2020-12',
    // A schema documented as something else (an id parsed from a path's text) is stated as that.
    override: ({ zodSchema, jsonSchema }) => {
      const documented = documentedSchemaOf(zodSchema);
      if (!documented) return;
      for (const key of Object.keys(jsonSchema)) delete (jsonSchema as JsonSchema)[key];
      Object.assign(jsonSchema, structuredClone(documented));
    },
  }) as JsonSchema;
  delete json.$schema;
  return json;
}

function parametersOf(schema: z.ZodType | undefined, where: 'path' | 'query'): JsonSchema[] {
  if (!schema) return [];
  const json = toSchema(schema, 'input');
  const properties = (json.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((json.required as string[] | undefined) ?? []);
  return Object.entries(properties).map(([name, property]) => ({
    name,
    in: where,
    required: where === 'path' || (required.has(name) && property.default === undefined),
    schema: property,
  }));
}

/** Every error status an endpoint can answer: its own, and those that follow from its shape. */
export function errorStatusesOf(endpoint: EndpointSpec): number[] {
  // 431: Node's HTTP parser refuses a request line and headers over 16 KB before any route (protocol.ts).
  const statuses = new Set<number>([431, 500, ...(endpoint.errors ?? [])]);
  const hasInput = Boolean(endpoint.params || endpoint.query || endpoint.body);
  if (hasInput) statuses.add(400);
  if (endpoint.method !== 'GET') {
    statuses.add(400); // a body that is not JSON, or not an object
    statuses.add(403); // a cross-site browser write
    statuses.add(413);
    statuses.add(415);
  }
  if (endpoint.access !== 'public') {
    statuses.add(401);
    statuses.add(403);
  }
  if (!endpoint.noDatabase) statuses.add(503);
  return [...statuses].sort((a, b) => a - b);
}

/** `/api/scenes/:idOrSlug` → `/api/scenes/{idOrSlug}` */
export const openApiPath = (path: string) => path.replace(/:([A-Za-z_]\w*)/g, '{$1}');
const tagOf = (path: string) => path.split('/')[2] ?? 'api';
const operationIdOf = (method: string, path: string) =>
  `${method.toLowerCase()}${path.replace(/^\/api/, '').replace(/[/:{}-]+(\w)?/g, (_m, c: string | undefined) => (c ? c.toUpperCase() : ''))}`;

function operationOf(endpoint: EndpointSpec, fullPath: string): Operation {
  const responses: Record<string, JsonSchema> = {};
  for (const [status, schema] of Object.entries(endpoint.responses)) {
    responses[status] = {
      description: status === '201' ? 'Created' : status === '202' ? 'Accepted' : 'Success',
      content: { [endpoint.produces ?? 'application/json']: { schema: endpoint.produces ? { type: 'string' } : toSchema(schema as z.ZodType, 'output') } },
    };
  }
  if (endpoint.conditional) {
    for (const response of Object.values(responses)) response.headers = { ETag: { description: 'The version of this answer (send it back as If-None-Match)', schema: { type: 'string' } } };
    responses['304'] = { description: 'Not modified: the If-None-Match tag is still current' };
  }
  const statuses = errorStatusesOf(endpoint);
  for (const status of statuses) {
    responses[String(status)] = { description: ERROR_DESCRIPTIONS[status as ErrorStatus] ?? 'Error', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } };
  }
  // An operation without inputs of its own can still meet a malformed request.
  if (!statuses.some((s) => s >= 400 && s < 500)) responses['4XX'] = { description: 'A malformed request', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } };
  const operation: Operation = {
    operationId: operationIdOf(endpoint.method, fullPath),
    summary: endpoint.summary,
    tags: [tagOf(fullPath)],
    responses,
    // Public operations say so: an empty requirement.
    security: endpoint.access !== 'public' ? [{ session: [] }, { bearer: [] }] : [],
  };
  const parameters = [...parametersOf(endpoint.params, 'path'), ...parametersOf(endpoint.query, 'query')];
  if (parameters.length) operation.parameters = parameters;
  if (endpoint.body) operation.requestBody = { required: true, content: { 'application/json': { schema: toSchema(endpoint.body, 'input') } } };
  return operation;
}

export function buildOpenApi<S, C>(router: Router<S, C>, info: { version: string }): JsonSchema {
  const paths: Record<string, Record<string, Operation>> = {};
  for (const layer of router.stack) {
    if (typeof layer.path !== 'string') continue;
    const endpoint = endpointOf(layer);
    if (!endpoint) continue; // refused at start-up (assertEveryRouteDeclared)
    (paths[openApiPath(layer.path)] ??= {})[endpoint.method.toLowerCase()] = operationOf(endpoint, layer.path);
  }
  const sortedPaths = Object.fromEntries(Object.entries(paths).sort(([a], [b]) => a.localeCompare(b)));
  return {
    openapi: '3.1.0',
    info: {
      title: 'Nature Wall API',
      version: info.version,
      description:
        'The REST API of Nature Wall. Errors are `{"error": "<field>: <message>", "details"?}`. Administrator routes take the session cookie (after POST /api/auth/login) or an API token as `Authorization: Bearer …`. Screens use the Socket.IO contract in src/shared/events.ts. Bodies are I-JSON (RFC 7493): a string with an unpaired surrogate is refused, and so is a body with a key named `__proto__` (the answer says: ' +
        PROTO_KEY +
        '). Text fields state their rule as a `pattern` (no control characters; tab and newline only in multi-line text; no bidirectional overrides in names) and, where JSON Schema cannot say it, in their description (a name needs a visible character). Ids in a path or query are plain digits, 1 to 2147483647; in a body, integers in that range.',
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
    },
    servers: [{ url: '/' }],
    paths: sortedPaths,
    components: {
      securitySchemes: {
        session: { type: 'apiKey', in: 'cookie', name: 'nw_session' },
        bearer: { type: 'http', scheme: 'bearer' },
      },
      schemas: {
        ...Object.fromEntries(Object.keys(DOCUMENT_COMPONENTS).map((key) => [key, DOCUMENT_COMPONENTS[key]])),
        Error: {
          type: 'object',
          required: ['error'],
          properties: {
            error: { type: 'string' },
            details: { type: 'array', items: { type: 'object', required: ['path', 'message'], properties: { path: { type: 'string' }, message: { type: 'string' } } } },
            queueEmpty: { type: 'boolean', description: 'Human evaluation: nothing is left to rate (404)' },
          },
          additionalProperties: false,
        },
      },
    },
  };
}
