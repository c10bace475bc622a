/**
 * Request durations by route template (never raw paths: `/api/streams/:id`, not
 * `/api/streams/123`), and `GET /metrics` for Prometheus. The endpoint is off unless
 * METRICS_TOKEN is set (then it needs `Authorization: Bearer <token>`); with METRICS_PORT the
 * metrics are served on that port instead, and the main port has none.
 */
import { timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { Middleware } from 'koa';
import { httpDuration, registry } from '../metrics.ts';

/** The route template a request matched; static files and the app's pages in two buckets. */
function routeOf(ctx: { _matchedRoute?: unknown; path: string; status: number }): string {
  if (typeof ctx._matchedRoute === 'string') return ctx._matchedRoute;
  if (ctx.path === '/metrics' || ctx.path === '/healthz' || ctx.path === '/readyz') return ctx.path;
  if (ctx.path.startsWith('/api')) return 'unmatched';
  return ctx.path.startsWith('/assets/') ? 'assets' : 'page';
}

export function requestMetrics(): Middleware {
  return async (ctx, next) => {
    const end = httpDuration.startTimer();
    try {
      await next();
    } finally {
      end({ method: ctx.method, route: routeOf(ctx as unknown as Parameters<typeof routeOf>[0]), status: String(ctx.status) });
    }
  };
}

const sameSecret = (given: string, expected: string) => {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
};

/** `GET /metrics` on the main port, behind METRICS_TOKEN; absent (404) without one. */
export function metricsEndpoint(token: string | undefined): Middleware {
  return async (ctx, next) => {
    if (ctx.path !== '/metrics') return next();
    if (!token) {
      ctx.status = 404;
      ctx.body = { error: 'Metrics are off: set METRICS_TOKEN, or METRICS_PORT for a port of their own' };
      return;
    }
    const given = /^Bearer (.+)$/.exec(ctx.get('authorization'))?.[1] ?? '';
    if (!sameSecret(given, token)) {
      ctx.status = 401;
      ctx.set('WWW-Authenticate', 'Bearer realm="metrics"');
      ctx.body = { error: 'Metrics need Authorization: Bearer <METRICS_TOKEN>' };
      return;
    }
    ctx.type = registry.contentType;
    ctx.body = await registry.metrics();
  };
}

/** The metrics on a port of their own (METRICS_PORT): for a scraper inside the private network. */
export function startMetricsServer(port: number, host = '0.0.0.0'): Promise<http.Server> {
  const server = http.createServer(async (req, res) => {
    if (req.url !== '/metrics') return res.writeHead(404).end();
    res.writeHead(200, { 'Content-Type': registry.contentType }).end(await registry.metrics());
  });
  return new Promise((resolve) => server.listen(port, host, () => resolve(server)));
}
