import Router from '@koa/router';
import { z } from 'zod';
import { Id, IdBody, StreamCreate, StreamListQuery, StreamUpdate, type SuccessDto } from '../../shared/api.ts';
import type { AppState } from '../../http/context.ts';
import { handle } from '../../http/route.ts';
import { runCommand, type ChangePublisher } from '../../realtime/changes.ts';
import { presentStream } from './stream.presenter.ts';
import { createStream, deleteStream, findStream, listStreams, updateStream } from './streams.service.ts';

export function streamsRouter(deps: { publisher: ChangePublisher }): Router<AppState> {
  const router = new Router<AppState>();

  router.get('/streams', handle({ query: StreamListQuery }, async (ctx, { query }) => {
    return (await listStreams(ctx.state.em, query)).map(presentStream);
  }));

  router.get('/streams/:id', handle({ params: z.object({ id: Id }) }, async (ctx, { params }) => {
    return presentStream(await findStream(ctx.state.em, params.id));
  }));

  router.post('/streams', handle({ body: StreamCreate }, async (ctx, { body }) => {
    const stream = await runCommand(ctx.state.em, deps.publisher, (tx, changes) => createStream(tx, changes, body));
    ctx.status = 201;
    return presentStream(stream);
  }));

  router.put('/streams', handle({ body: StreamUpdate }, async (ctx, { body }) => {
    const stream = await runCommand(ctx.state.em, deps.publisher, (tx, changes) => updateStream(tx, changes, body));
    return { success: true, stream: presentStream(stream) };
  }));

  router.delete('/streams', handle({ body: IdBody }, async (ctx, { body }) => {
    await runCommand(ctx.state.em, deps.publisher, (tx, changes) => deleteStream(tx, changes, body.id));
    return { success: true } satisfies SuccessDto;
  }));

  return router;
}
