import Router from '@koa/router';
import { DefaultSceneUpdate, type DefaultSceneDto } from '../../shared/api.ts';
import type { AppState } from '../../http/context.ts';
import type { ChangePublisher } from '../../domain/changes.ts';
import { runCommand } from '../../domain/command.ts';
import { notFound } from '../../domain/errors.ts';
import { handle } from '../../http/route.ts';
import type { SceneSnapshots } from '../scenes/scene-snapshots.ts';
import { setDefaultScene } from '../scenes/scenes.service.ts';

export function configRouter(deps: { publisher: ChangePublisher; snapshots: SceneSnapshots }): Router<AppState> {
  const router = new Router<AppState>();

  router.get('/config/default-scene', handle({}, async () => {
    const sceneId = await deps.snapshots.defaultSceneId();
    if (sceneId === null) throw notFound('No default scene is configured');
    return { scene_id: sceneId } satisfies DefaultSceneDto;
  }));

  router.put('/config/default-scene', handle({ body: DefaultSceneUpdate }, async (ctx, { body }) => {
    const actor = (await ctx.state.actor())?.username ?? 'unknown'; // the guard let an admin through
    await runCommand(ctx.state.em, deps.publisher, (em, changes) => setDefaultScene(em, changes, body.scene_id, actor), {
      transaction: false,
    });
    return { scene_id: body.scene_id } satisfies DefaultSceneDto;
  }));

  return router;
}
