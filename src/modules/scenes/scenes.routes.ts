import Router from '@koa/router';
import {
  IdBody,
  SceneCreate,
  SceneListQuery,
  SceneRef,
  SceneUpdate,
  type SceneDto,
  type SceneStreamDto,
  type SuccessDto,
} from '../../shared/api.ts';
import type { AppState } from '../../http/context.ts';
import { handle } from '../../http/route.ts';
import { runCommand, type ChangePublisher } from '../../realtime/changes.ts';
import type { EntityManager } from '../../db.ts';
import type { Scene } from './scene.entity.ts';
import { presentScene } from './scene.presenter.ts';
import {
  createScene,
  deleteScene,
  findActiveScene,
  getDefaultSceneId,
  listScenes,
  loadSlots,
  resolveSceneStreams,
  updateScene,
} from './scenes.service.ts';

async function present(em: EntityManager, scenes: Scene[]): Promise<SceneDto[]> {
  const [slots, defaultId] = await Promise.all([loadSlots(em, scenes.map((s) => s.id)), getDefaultSceneId(em)]);
  return scenes.map((scene) => presentScene(scene, slots.get(scene.id) ?? [], defaultId));
}

export function scenesRouter(deps: { publisher: ChangePublisher }): Router<AppState> {
  const router = new Router<AppState>();

  router.get('/scenes', handle({ query: SceneListQuery }, async (ctx, { query }) => {
    return present(ctx.state.em, await listScenes(ctx.state.em, query));
  }));

  router.get('/scenes/:idOrSlug', handle({ params: SceneRef }, async (ctx, { params }) => {
    const [dto] = await present(ctx.state.em, [await findActiveScene(ctx.state.em, params.idOrSlug)]);
    return dto;
  }));

  router.get('/scenes/:idOrSlug/streams', handle({ params: SceneRef }, async (ctx, { params }) => {
    const scene = await findActiveScene(ctx.state.em, params.idOrSlug);
    return (await resolveSceneStreams(ctx.state.em, scene)) satisfies SceneStreamDto[];
  }));

  router.post('/scenes', handle({ body: SceneCreate }, async (ctx, { body }) => {
    const scene = await runCommand(ctx.state.em, deps.publisher, (tx, changes) => createScene(tx, changes, body));
    ctx.status = 201;
    const [dto] = await present(ctx.state.em, [scene]);
    return dto;
  }));

  router.put('/scenes', handle({ body: SceneUpdate }, async (ctx, { body }) => {
    const scene = await runCommand(ctx.state.em, deps.publisher, (tx, changes) => updateScene(tx, changes, body));
    const [dto] = await present(ctx.state.em, [scene]);
    return { success: true, scene: dto };
  }));

  router.delete('/scenes', handle({ body: IdBody }, async (ctx, { body }) => {
    await runCommand(ctx.state.em, deps.publisher, (tx, changes) => deleteScene(tx, changes, body.id));
    return { success: true } satisfies SuccessDto;
  }));

  return router;
}
