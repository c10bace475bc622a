import Router from '@koa/router';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import { weatherEndpoints as api } from '../../shared/api/weather.ts';
import type { AppState } from '../../http/context.ts';
import { spend, tooManyRequests } from '../../http/rate-limit.ts';
import { mount } from '../../http/route.ts';
import type { WeatherService } from './weather.service.ts';

export interface WeatherRouteDeps {
  weather: WeatherService;
  weatherLimit: RateLimiterAbstract;
}

/** GET /api/weather: public (screens show it), cached, rate-limited per IP; the key stays here. */
export function weatherRouter(deps: WeatherRouteDeps): Router<AppState> {
  const router = new Router<AppState>();
  mount(router, api.current)(async (ctx, { query }) => {
    const over = await spend(deps.weatherLimit, ctx.ip || 'unknown');
    if (over) throw tooManyRequests(ctx, over, 'Too many weather requests; try again shortly');
    ctx.set('Cache-Control', 'public, max-age=300');
    return deps.weather.current(query.lat, query.lon);
  });
  return router;
}
