import type { Middleware } from 'koa';
import { pinoHttp } from 'pino-http';
import type { Logger } from '../logger.ts';

/** One JSON line per request (method, url, status, time); 5xx at error level with the error. */
export function requestLog(logger: Logger): Middleware {
  const httpLogger = pinoHttp({
    logger,
    customLogLevel: (_req, res, err) => (err || res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'info' : 'debug'),
    serializers: {
      req: (req: { method: string; url: string; id: unknown }) => ({ id: req.id, method: req.method, url: req.url }),
      res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
    },
  });
  return async (ctx, next) => {
    httpLogger(ctx.req, ctx.res);
    ctx.state.log = ctx.req.log;
    await next();
  };
}
