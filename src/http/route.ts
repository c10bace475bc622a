/**
 * The route pipeline: an endpoint of the contract (src/shared/api/contract.ts) is mounted with
 * its handler; the body (read only for endpoints that declare one), query and params are parsed
 * with the endpoint's zod schemas, then the typed handler runs and what it returns is the answer.
 * The endpoint stays attached to the route, so the access guard and the OpenAPI document read it
 * off the router.
 */
import type Router from '@koa/router';
import type { Layer, RouterMiddleware } from '@koa/router';
import type { z } from 'zod';
import type { AnswerOf, EndpointSpec, InputOf } from '../shared/api/contract.ts';
import type { AppContext, AppState } from './context.ts';
import { readJsonBody } from './body.ts';
import { fromZodError } from './errors.ts';

export type RouteMiddleware = RouterMiddleware<AppState> & { endpoint?: EndpointSpec };

function parse(schema: z.ZodType, value: unknown, where: string): unknown {
  const result = schema.safeParse(value);
  if (!result.success) throw fromZodError(result.error, where);
  return result.data;
}

/**
 * Mounts a handler on an endpoint: `mount(router, streamEndpoints.get)(async (ctx, { params }) => …)`.
 * (Two steps, so the endpoint's types are fixed before the handler is checked against them.)
 * The handler sees parsed, typed input; its return value is the JSON answer, with the status
 * its declaration gives (its one success status, or `statusOf` the answer); a Buffer is sent as ready-made JSON (a cached answer), or
 * as it is for an endpoint that `produces` another media type (a picture: the handler sets its type).
 */
/** An endpoint's success status when it declares one (200 when it declares several and no `statusOf`). */
function onlyStatus(endpoint: EndpointSpec): number {
  const statuses = Object.keys(endpoint.responses).map(Number);
  return statuses.length === 1 ? statuses[0]! : 200;
}

export function mount<S extends EndpointSpec>(router: Router<AppState>, endpoint: S) {
  return (handler: (ctx: AppContext, input: InputOf<S>) => Promise<AnswerOf<S> | Buffer>): void => {
    const status = onlyStatus(endpoint);
    const middleware: RouteMiddleware = async (ctx) => {
      const input: Record<string, unknown> = {};
      if (endpoint.params) input.params = parse(endpoint.params, ctx.params, 'params');
      if (endpoint.query) input.query = parse(endpoint.query, ctx.query, 'query');
      if (endpoint.body) {
        await readJsonBody(ctx);
        input.body = parse(endpoint.body, ctx.request.body ?? {}, 'body');
      }
      const result = await handler(ctx, input as InputOf<S>);
      // A Buffer is pre-serialised JSON (frozenJson), unless the endpoint produces another type (its handler set it).
      if (Buffer.isBuffer(result) && !endpoint.produces) ctx.type = 'application/json';
      if (result === undefined) return;
      ctx.body = result;
      // The success status comes from the declaration alone (a handler that answered 304 keeps it).
      if (ctx.status < 300) ctx.status = endpoint.statusOf?.(result) ?? status;
    };
    middleware.endpoint = endpoint;
    router.register(endpoint.path, [endpoint.method], middleware);
  };
}

/**
 * Mounts a route whose answer is not a JSON value of the contract (the reference pages, static
 * assets): it still has its endpoint, so access and documentation read it like any other.
 */
export function mountRaw(router: Router<AppState>, endpoint: EndpointSpec, middleware: RouterMiddleware<AppState>): void {
  const raw = middleware as RouteMiddleware;
  raw.endpoint = endpoint;
  router.register(endpoint.path, [endpoint.method], raw);
}

/** The endpoint a router layer was mounted for (undefined for a route mounted without one). */
export function endpointOf<S, C>(layer: Layer<S, C>): EndpointSpec | undefined {
  for (const middleware of [...layer.stack].reverse()) {
    const endpoint = (middleware as { endpoint?: EndpointSpec }).endpoint;
    if (endpoint) return endpoint;
  }
  return undefined;
}
