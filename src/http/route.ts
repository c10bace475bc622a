/**
 * The route pipeline: parse body, query and params with zod schemas from src/shared/api.ts,
 * then call a typed handler whose return value is the answer. The schemas stay attached to
 * the middleware so tools (the route table in the README, access tests) can read them.
 */
import type { RouterMiddleware } from '@koa/router';
import type { z } from 'zod';
import type { AppContext, AppState } from './context.ts';
import { fromZodError } from './errors.ts';

export interface RouteSchemas {
  body?: z.ZodType;
  query?: z.ZodType;
  params?: z.ZodType;
}

type Parsed<S extends RouteSchemas> = {
  [K in keyof S]: S[K] extends z.ZodType ? z.output<S[K]> : never;
};

export type RouteMiddleware = RouterMiddleware<AppState> & { schemas?: RouteSchemas };

function parse(schema: z.ZodType, value: unknown, where: string): unknown {
  const result = schema.safeParse(value);
  if (!result.success) throw fromZodError(result.error, where);
  return result.data;
}

/**
 * `handle({ body: StreamCreate }, async (ctx, { body }) => ...)`: the handler sees parsed,
 * typed input; what it returns becomes the JSON body (status 200 unless it set another);
 * a Buffer is sent as ready-made JSON.
 */
export function handle<S extends RouteSchemas>(
  schemas: S,
  handler: (ctx: AppContext, input: Parsed<S>) => Promise<unknown>,
): RouteMiddleware {
  const middleware: RouteMiddleware = async (ctx) => {
    const input: Record<string, unknown> = {};
    if (schemas.params) input.params = parse(schemas.params, ctx.params, 'params');
    if (schemas.query) input.query = parse(schemas.query, ctx.query, 'query');
    if (schemas.body) input.body = parse(schemas.body, ctx.request.body ?? {}, 'body');
    const result = await handler(ctx, input as Parsed<S>);
    if (Buffer.isBuffer(result)) ctx.type = 'application/json'; // pre-serialised JSON (frozenJson)
    if (result !== undefined) ctx.body = result;
  };
  middleware.schemas = schemas;
  return middleware;
}
