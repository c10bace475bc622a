import Router from '@koa/router';
import type { ScreenPresence } from '../../shared/events.ts';
import { screenEndpoints as api, type ScreenCommandName } from '../../shared/api/screens.ts';
import type { AppState } from '../../http/context.ts';
import { mount } from '../../http/route.ts';
import { isDatabaseUnavailable } from '../../database/availability.ts';
import { notFound } from '../../domain/errors.ts';
import { dayShares, screenUptime } from './screen-sessions.ts';

/** Set on the answer when a node did not answer in time: the list holds the nodes that did. */
export const PARTIAL_HEADER = 'X-Partial-Result';

export interface ScreensDeps {
  listScreens: (options: { includeOffline: boolean }) => Promise<{ screens: ScreenPresence[]; partial: boolean }>;
  commandScreens: (command: ScreenCommandName, id?: string) => void;
}

export function screensRouter(deps: ScreensDeps): Router<AppState> {
  const router = new Router<AppState>();

  /** Every connected wall, kiosk, admin and rater on every node (and, on request, those seen in the last day). */
  mount(router, api.list)(async (ctx, { query }) => {
    const { screens, partial } = await deps.listScreens({ includeOffline: query.include_offline });
    if (partial) ctx.set(PARTIAL_HEADER, 'true');
    let shares = new Map<string, number | null>();
    try {
      shares = await dayShares(ctx.state.em, screens.filter((s) => s.kind === 'wall' || s.kind === 'kiosk').map((s) => s.id));
    } catch (err) {
      // The list is what an operator needs most during an outage: it is answered without uptime then.
      if (!isDatabaseUnavailable(err)) throw err;
    }
    return screens.map((s) => ({ ...s, uptime_24h: shares.get(s.id) ?? null }));
  });

  /** The share of the last day and week a wall or kiosk was online (by its current or last connection id), and per hour. */
  mount(router, api.uptime)(async (ctx, { params }) => {
    const uptime = await screenUptime(ctx.state.em, params.id);
    if (!uptime) throw notFound(`No wall or kiosk has connected as ${params.id}`);
    return uptime;
  });

  /** Reload or identify one screen, or every wall and kiosk. */
  mount(router, api.command)(async (_ctx, { body }) => {
    deps.commandScreens(body.command, body.id);
    return { success: true };
  });

  return router;
}
