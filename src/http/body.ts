/**
 * JSON bodies: @koa/bodyparser, plus a clear 400 when a body claims a Content-Encoding
 * (gzip, deflate, br) it does not have — zlib's own error carries no status and would
 * otherwise be a 500.
 */
import { bodyParser } from '@koa/bodyparser';
import type { Middleware } from 'koa';
import { HttpError, NOT_AN_OBJECT } from './errors.ts';

export const BODY_LIMIT = '100kb';

export function jsonBody(): Middleware {
  const parse = bodyParser({ enableTypes: ['json'], jsonLimit: BODY_LIMIT, parsedMethods: ['POST', 'PUT', 'PATCH', 'DELETE'] });
  return async (ctx, next) => {
    let parsed = false;
    try {
      await parse(ctx, () => {
        parsed = true;
        // Every body of this API is an object; a JSON array is valid JSON, but never an answer to that.
        if (Array.isArray(ctx.request.body)) throw new HttpError(400, NOT_AN_OBJECT);
        return next();
      });
    } catch (error) {
      const encoding = ctx.get('content-encoding').trim().toLowerCase();
      const hasStatus = typeof (error as { status?: unknown }).status === 'number';
      if (parsed || hasStatus || encoding === '' || encoding === 'identity') throw error;
      throw new HttpError(400, `Request body could not be decoded as ${encoding} (Content-Encoding)`);
    }
  };
}
