import Router from '@koa/router';
import { streamEndpoints as api } from '../../shared/api/index.ts';
import type { AppState } from '../../http/context.ts';
import type { CommandDeps } from '../../domain/command.ts';
import { notFound } from '../../domain/errors.ts';
import { runAs } from '../../http/command.ts';
import { mount } from '../../http/route.ts';
import { presentStream } from './stream.presenter.ts';
import { isPageQuery, streamAnalytics, streamPage } from './stream-pages.ts';
import { createStream, deleteStream, findStream, listStreams, updateStream } from './streams.service.ts';

export function streamsRouter(deps: { commands: CommandDeps }): Router<AppState> {
  const router = new Router<AppState>();

  // Anonymous callers (screens, visitors) see active streams only; admins see the whole pool.
  mount(router, api.list)(async (ctx, { query }) => {
    const admin = await ctx.state.actor();
    const active = admin ? query.active : true;
    if (isPageQuery(query)) {
      if (!admin && query.active === false) return { streams: [], next_cursor: null, total: 0, total_capped: false };
      return streamPage(ctx.state.em, { ...query, active });
    }
    if (!admin && query.active === false) return [];
    return (await listStreams(ctx.state.em, { active })).map(presentStream);
  });

  // Before /streams/:id, which would take "analytics" for an id.
  mount(router, api.analytics)(async (ctx, { query }) => streamAnalytics(ctx.state.em, query));

  mount(router, api.get)(async (ctx, { params }) => {
    const stream = await findStream(ctx.state.em, params.id);
    if (!stream.active && !(await ctx.state.actor())) throw notFound(`Stream not found: ${params.id}`);
    return presentStream(stream);
  });

  mount(router, api.create)(async (ctx, { body }) => {
    const stream = await runAs(ctx, deps.commands, (tx, changes) => createStream(tx, changes, body));
    ctx.status = 201;
    return presentStream(stream);
  });

  mount(router, api.update)(async (ctx, { body }) => {
    const stream = await runAs(ctx, deps.commands, (tx, changes) => updateStream(tx, changes, body));
    return { success: true, stream: presentStream(stream) };
  });

  mount(router, api.remove)(async (ctx, { body }) => {
    await runAs(ctx, deps.commands, (tx, changes) => deleteStream(tx, changes, body.id));
    return { success: true };
  });

  return router;
}
