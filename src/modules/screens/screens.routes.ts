import Router from '@koa/router';
import type { ScreenPresence } from '../../shared/events.ts';
import type { AppState } from '../../http/context.ts';
import { handle } from '../../http/route.ts';

/** GET /api/screens: every connected wall, kiosk, admin and rater, on every node. */
export function screensRouter(deps: { listScreens: () => Promise<ScreenPresence[]> }): Router<AppState> {
  const router = new Router<AppState>();
  router.get('/screens', handle({}, async () => deps.listScreens()));
  return router;
}
