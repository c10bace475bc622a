import Router from '@koa/router';
import type { ScreenPresence } from '../../shared/events.ts';
import type { AppState } from '../../http/context.ts';
import { handle } from '../../http/route.ts';

/** Set on the answer when a node did not answer in time: the list holds the nodes that did. */
export const PARTIAL_HEADER = 'X-Partial-Result';

/** GET /api/screens: every connected wall, kiosk, admin and rater, on every node. */
export function screensRouter(deps: { listScreens: () => Promise<{ screens: ScreenPresence[]; partial: boolean }> }): Router<AppState> {
  const router = new Router<AppState>();
  router.get(
    '/screens',
    handle({}, async (ctx) => {
      const { screens, partial } = await deps.listScreens();
      if (partial) ctx.set(PARTIAL_HEADER, 'true');
      return screens;
    }),
  );
  return router;
}
