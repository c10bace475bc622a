import Router from '@koa/router';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import { runAs, runCommand, type CommandDeps } from '../../domain/command.ts';
import type { AppContext, AppState } from '../../http/context.ts';
import { HttpError } from '../../http/errors.ts';
import { spend, tooManyRequests } from '../../http/rate-limit.ts';
import { mount } from '../../http/route.ts';
import { screenEndpoints as api } from '../../shared/api/screens.ts';
import { groupsOfDevices } from '../programme/programme.service.ts';
import { approvePairing, listEnrolled, PairingBusy, presentEnrolled, requestPairing, revokeEnrolled, updateEnrolled, waitingPairings } from './enrolment.service.ts';
import type { EnrolledScreen } from './enrolment.entity.ts';

export interface EnrolmentRouteDeps {
  commands: CommandDeps;
  approval: boolean;
  now: () => number;
  /** Pairing requests per address (anonymous, public). */
  pairingLimit: RateLimiterAbstract;
}

/** A user agent as the console shows it: printable, at most 300 characters. */
const userAgentOf = (ctx: AppContext) => (ctx.get('user-agent').replace(/[^\x20-\x7E]/g, '').slice(0, 300) || null);

const byOf = async (ctx: AppContext) => (await ctx.state.actor())?.username ?? 'anonymous';

export function enrolmentRouter(deps: EnrolmentRouteDeps): Router<AppState> {
  const router = new Router<AppState>();
  const present = async (ctx: AppContext, screen: EnrolledScreen) => presentEnrolled(screen, await groupsOfDevices(ctx.state.em, [screen.device]));

  mount(router, api.pair)(async (ctx, { body }) => {
    if (!deps.approval) throw new HttpError(409, 'Screen approval is off on this server (SCREEN_APPROVAL=off): every wall and kiosk address is a screen already');
    const over = await spend(deps.pairingLimit, ctx.ip || 'unknown');
    if (over) throw tooManyRequests(ctx, over, 'Too many pairing requests from this address; wait a few minutes');
    try {
      return await runCommand(ctx.state.em, deps.commands, 'anonymous', (tx, changes) =>
        requestPairing(tx, changes, body, { address: ctx.ip || 'unknown', userAgent: userAgentOf(ctx) }, deps.now()),
      );
    } catch (err) {
      if (err instanceof PairingBusy) {
        ctx.set('Retry-After', '60');
        throw new HttpError(429, err.message);
      }
      throw err;
    }
  });

  mount(router, api.pairings)(async (ctx) => waitingPairings(ctx.state.em, deps.now()));

  mount(router, api.approve)(async (ctx, { body }) => {
    const by = await byOf(ctx);
    const screen = await runAs(ctx, deps.commands, (tx, changes) => approvePairing(tx, changes, body, by, deps.now()));
    return present(ctx, screen);
  });

  mount(router, api.enrolled)(async (ctx) => ({ approval: deps.approval, screens: await listEnrolled(ctx.state.em) }));

  mount(router, api.updateEnrolled)(async (ctx, { body }) => {
    const screen = await runAs(ctx, deps.commands, (tx, changes) => updateEnrolled(tx, changes, body));
    return present(ctx, screen);
  });

  mount(router, api.revoke)(async (ctx, { body }) => {
    const by = await byOf(ctx);
    const screen = await runAs(ctx, deps.commands, (tx, changes) => revokeEnrolled(tx, changes, body.id, by, deps.now()));
    return present(ctx, screen);
  });

  return router;
}
