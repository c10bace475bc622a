/**
 * The OpenAPI 3.1 document of /api, generated from the router itself: every route's method and
 * path from its table, its body, query and path parameters from the zod schemas `handle()`
 * keeps on the route (zod 4's own JSON Schema output, draft 2020-12 as OpenAPI 3.1 expects),
 * and who may call it from the access policy. Nothing is written twice, so a new route is in
 * the document the moment it exists.
 */
import type { Layer, Router } from '@koa/router';
import { z } from 'zod';
import type { RouteSchemas } from './route.ts';

export type Access = 'public' | 'admin';

type JsonSchema = Record<string, unknown>;

interface Operation {
  operationId: string;
  summary: string;
  tags: string[];
  parameters?: JsonSchema[];
  requestBody?: JsonSchema;
  responses: Record<string, JsonSchema>;
  security?: Record<string, string[]>[];
}

const ERROR_RESPONSE = { $ref: '#/components/responses/Error' };

function toSchema(schema: z.ZodType): JsonSchema {
  // Input shapes: what a caller sends (transforms and defaults apply after parsing).
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any', target: 'draft-2020-12' }) as JsonSchema;
  delete json.$schema;
  return json;
}

function parametersOf(schema: z.ZodType | undefined, where: 'path' | 'query'): JsonSchema[] {
  if (!schema) return [];
  const json = toSchema(schema);
  const properties = (json.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((json.required as string[] | undefined) ?? []);
  return Object.entries(properties).map(([name, property]) => ({
    name,
    in: where,
    required: where === 'path' || (required.has(name) && property.default === undefined),
    schema: property,
  }));
}

function schemasOf<S, C>(layer: Layer<S, C>): RouteSchemas {
  for (const middleware of [...layer.stack].reverse()) {
    const schemas = (middleware as { schemas?: RouteSchemas }).schemas;
    if (schemas) return schemas;
  }
  return {};
}

/** `/api/scenes/:idOrSlug` → `/api/scenes/{idOrSlug}` */
const openApiPath = (path: string) => path.replace(/:([A-Za-z_]\w*)/g, '{$1}');
const tagOf = (path: string) => path.split('/')[2] ?? 'api';

export function buildOpenApi<S, C>(router: Router<S, C>, accessFor: (method: string, path: string) => Access | undefined, info: { version: string }): JsonSchema {
  const paths: Record<string, Record<string, Operation>> = {};
  for (const layer of router.stack) {
    if (typeof layer.path !== 'string') continue;
    const schemas = schemasOf(layer);
    for (const method of layer.methods) {
      if (method === 'HEAD') continue;
      const access = accessFor(method, layer.path) ?? 'admin';
      const operation: Operation = {
        operationId: `${method.toLowerCase()}${layer.path.replace(/^\/api/, '').replace(/[/:{}-]+(\w)?/g, (_m, c: string | undefined) => (c ? c.toUpperCase() : ''))}`,
        summary: `${method} ${layer.path}${access === 'admin' ? ' (administrators)' : ''}`,
        tags: [tagOf(layer.path)],
        responses: {
          '200': { description: 'Success (201 for a creation)', content: { 'application/json': { schema: {} } } },
          '400': ERROR_RESPONSE,
          ...(access === 'admin' ? { '401': ERROR_RESPONSE, '403': ERROR_RESPONSE } : {}),
          '404': ERROR_RESPONSE,
          '409': ERROR_RESPONSE,
          '429': ERROR_RESPONSE,
          '503': ERROR_RESPONSE,
        },
      };
      const parameters = [...parametersOf(schemas.params, 'path'), ...parametersOf(schemas.query, 'query')];
      if (parameters.length) operation.parameters = parameters;
      if (schemas.body) operation.requestBody = { required: true, content: { 'application/json': { schema: toSchema(schemas.body) } } };
      if (access === 'admin') operation.security = [{ session: [] }, { bearer: [] }];
      (paths[openApiPath(layer.path)] ??= {})[method.toLowerCase()] = operation;
    }
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Nature Wall API',
      version: info.version,
      description:
        'The REST API of Nature Wall. Errors are `{"error": "<field>: <message>", "details"?}`. Administrator routes take the session cookie (after POST /api/auth/login) or an API token as `Authorization: Bearer …`. Screens use the Socket.IO contract in src/shared/events.ts.',
    },
    servers: [{ url: '/' }],
    paths,
    components: {
      securitySchemes: {
        session: { type: 'apiKey', in: 'cookie', name: 'nw_session' },
        bearer: { type: 'http', scheme: 'bearer' },
      },
      responses: {
        Error: {
          description: 'A readable error',
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['error'],
                properties: {
                  error: { type: 'string' },
                  details: { type: 'array', items: { type: 'object', properties: { path: { type: 'string' }, message: { type: 'string' } } } },
                },
              },
            },
          },
        },
      },
    },
  };
}
