import type { Middleware } from 'koa';
import { pinoHttp } from 'pino-http';
import type { Logger } from '../logger.ts';

/**
 * One JSON line per request (method, url, status, time) at info; 500 at error with the error.
 * A 503 (database away) stays at info: the outage itself is logged once, not per request.
 * Health probes log at debug, so a load balancer polling every second does not drown the log.
 */
export function requestLog(logger: Logger): Middleware {
  const httpLogger = pinoHttp({
    logger,
    customLogLevel: (req, res, err) => {
      if (err || (res.statusCode >= 500 && res.statusCode !== 503)) return 'error';
      return req.url === '/healthz' || req.url === '/readyz' ? 'debug' : 'info';
    },
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
