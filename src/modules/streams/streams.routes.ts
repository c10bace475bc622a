import Router from '@koa/router';
import { streamEndpoints as api } from '../../shared/api/index.ts';
import type { AppState } from '../../http/context.ts';
import { runAs, type CommandDeps } from '../../domain/command.ts';
import { notFound } from '../../domain/errors.ts';
import { mount } from '../../http/route.ts';
import { presentStream, stillVersion } from './stream.presenter.ts';
import { stillHead, stillPicture, type StillHead } from './stream-stills.ts';
import { isPageQuery, streamAnalytics, streamPage } from './stream-pages.ts';
import { streamUptime } from './stream-uptime.ts';
import { createStream, deleteStream, type PlacementsOf, findStream, listStreams, updateStream } from './streams.service.ts';

/** How long browsers and proxies keep a still before asking again (with its ETag). */
const STILL_MAX_AGE_SECONDS = 300;

const stillTag = (id: number, head: StillHead) => `"${id}-${stillVersion(head.takenAt)}"`;

/** Whether If-None-Match names this tag (a list, weak tags or `*`). */
function tagMatches(ifNoneMatch: string | undefined, tag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.split(',').some((t) => {
    const candidate = t.trim().replace(/^W\//, '');
    return candidate === '*' || candidate === tag;
  });
}

export function streamsRouter(deps: { commands: CommandDeps; placementsOf: PlacementsOf }): Router<AppState> {
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

  /** The share of the last day and week it was live, and per hour. */
  mount(router, api.uptime)(async (ctx, { params }) => streamUptime(ctx.state.em, params.id));

  // A stream's still from our origin (never hot-linked), public like the list: anonymous callers
  // see active streams' stills; an inactive stream's is an admin's, and is not kept by shared caches.
  mount(router, api.still)(async (ctx, { params }) => {
    const shown = async <T extends StillHead>(still: T | null): Promise<T> => {
      if (!still || (!still.active && !(await ctx.state.actor()))) throw notFound(`No still for stream ${params.id} yet`);
      ctx.set({ ETag: stillTag(params.id, still), 'Cache-Control': `${still.active ? 'public' : 'private'}, max-age=${STILL_MAX_AGE_SECONDS}` });
      return still;
    };
    const head = await shown(await stillHead(ctx.state.em, params.id));
    if (tagMatches(ctx.get('if-none-match'), stillTag(params.id, head))) {
      ctx.status = 304;
      return Buffer.alloc(0); // no body goes with a 304
    }
    // Read again with its bytes: the tag set is the one of the bytes sent, even if a new still came in between.
    const picture = await shown(await stillPicture(ctx.state.em, params.id));
    ctx.type = picture.contentType;
    return picture.bytes;
  });

  mount(router, api.create)(async (ctx, { body }) => {
    const stream = await runAs(ctx, deps.commands, (tx, changes) => createStream(tx, changes, body));
    return presentStream(stream);
  });

  mount(router, api.update)(async (ctx, { body }) => {
    const stream = await runAs(ctx, deps.commands, (tx, changes) => updateStream(tx, changes, body));
    return { success: true, stream: presentStream(stream) };
  });

  mount(router, api.remove)(async (ctx, { body }) => {
    await runAs(ctx, deps.commands, (tx, changes) => deleteStream(tx, changes, body.id, deps.placementsOf));
    return { success: true };
  });

  return router;
}
