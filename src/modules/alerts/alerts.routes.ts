import Router from '@koa/router';
import { runAs, type CommandDeps } from '../../domain/command.ts';
import { HttpError } from '../../http/errors.ts';
import type { AppState } from '../../http/context.ts';
import { mount } from '../../http/route.ts';
import type { SafeFetcher } from '../../http/safe-fetch.ts';
import { alertEndpoints as api } from '../../shared/api/alerts.ts';
import { alertsOverview, presentDelivery, presentDestination, presentRule } from './alerts.presenter.ts';
import { createDestination, createGroupRule, deleteDestination, deleteRule, fileTestDelivery, updateDestination, updateRule } from './alerts.service.ts';

export interface AlertRouteDeps {
  commands: CommandDeps;
  fetcher: SafeFetcher;
  /** Queues a filed delivery's job (absent without a job queue: the test message answers 503). */
  queueDelivery?: ((delivery: { id: number; jobId: string }) => Promise<void>) | undefined;
  /** The watch's clock (a test message is stamped on it, as the watch's messages are). */
  now: () => number;
}

export function alertsRouter(deps: AlertRouteDeps): Router<AppState> {
  const router = new Router<AppState>();

  mount(router, api.overview)(async (ctx) => alertsOverview(ctx.state.em));

  mount(router, api.updateRule)(async (ctx, { body }) => presentRule(await runAs(ctx, deps.commands, (tx, changes) => updateRule(tx, changes, body))));

  mount(router, api.createGroupRule)(async (ctx, { body }) => {
    const rule = await runAs(ctx, deps.commands, (tx, changes) => createGroupRule(tx, changes, body));
    return presentRule(rule);
  });

  mount(router, api.deleteRule)(async (ctx, { body }) => {
    await runAs(ctx, deps.commands, (tx, changes) => deleteRule(tx, changes, body.id));
    return { success: true };
  });

  mount(router, api.createDestination)(async (ctx, { body }) => {
    const destination = await runAs(ctx, deps.commands, (tx, changes) => createDestination(tx, changes, body, deps.fetcher));
    return { ...presentDestination(destination), secret: destination.secret ?? null };
  });

  mount(router, api.updateDestination)(async (ctx, { body }) => presentDestination(await runAs(ctx, deps.commands, (tx, changes) => updateDestination(tx, changes, body))));

  mount(router, api.deleteDestination)(async (ctx, { body }) => {
    await runAs(ctx, deps.commands, (tx, changes) => deleteDestination(tx, changes, body.id));
    return { success: true };
  });

  mount(router, api.testDestination)(async (ctx, { body }) => {
    const queueDelivery = deps.queueDelivery;
    if (!queueDelivery) throw new HttpError(503, 'Background jobs are not running on this server');
    const delivery = await runAs(ctx, deps.commands, (tx, changes) => fileTestDelivery(tx, changes, body.id, deps.now()));
    await queueDelivery(delivery);
    return presentDelivery(delivery);
  });

  return router;
}
