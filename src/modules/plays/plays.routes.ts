import Router from '@koa/router';
import { playsEndpoints as api } from '../../shared/api/plays.ts';
import type { AppState } from '../../http/context.ts';
import { mount } from '../../http/route.ts';
import { playsCsv, playTotals, type PlaySettings } from './plays.service.ts';

export function playsRouter(deps: { settings: PlaySettings; now: () => number }): Router<AppState> {
  const router = new Router<AppState>();
  mount(router, api.totals)(async (ctx, { query }) => playTotals(ctx.state.em, query, deps.settings, deps.now()));
  mount(router, api.export)(async (ctx, { query }) => {
    const csv = await playsCsv(ctx.state.em, query, deps.settings, deps.now());
    ctx.type = 'text/csv; charset=utf-8';
    ctx.set('Content-Disposition', `attachment; filename="proof-of-play.csv"`);
    return Buffer.from(csv, 'utf8');
  });
  return router;
}
