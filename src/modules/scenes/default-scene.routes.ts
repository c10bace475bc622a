/**
 * The default scene (spec §7 `/config/default-scene`): the scenes module owns the rule (an
 * active scene; who changed it), the config module only stores the setting.
 */
import Router from '@koa/router';
import { defaultSceneEndpoints as api } from '../../shared/api/index.ts';
import type { AppState } from '../../http/context.ts';
import { runAs, type CommandDeps } from '../../domain/command.ts';
import { notFound } from '../../domain/errors.ts';
import { mount } from '../../http/route.ts';
import type { SceneSnapshots } from './scene-snapshots.ts';
import { setDefaultScene } from './scenes.service.ts';
import { DEFAULT_SCENE_KEY } from '../../shared/constants.ts';
import { getConfigRow } from '../config/config.service.ts';

export function defaultSceneRouter(deps: { commands: CommandDeps; snapshots: SceneSnapshots }): Router<AppState> {
  const router = new Router<AppState>();

  // Screens read the id from the cache; admins also see who last changed it and when.
  mount(router, api.get)(async (ctx) => {
    const sceneId = await deps.snapshots.defaultSceneId();
    if (sceneId === null) throw notFound('No default scene is configured');
    if (!(await ctx.state.actor())) return { scene_id: sceneId };
    const row = await getConfigRow(ctx.state.em, DEFAULT_SCENE_KEY);
    return { scene_id: sceneId, updated_by: row?.updatedBy ?? null, updated_at: row?.updatedAt.toISOString() ?? null };
  });

  mount(router, api.set)(async (ctx, { body }) => {
    const actor = (await ctx.state.actor())?.username ?? 'anonymous'; // recorded as updated_by
    await runAs(ctx, deps.commands, (em, changes) => setDefaultScene(em, changes, body.scene_id, actor));
    return { scene_id: body.scene_id };
  });

  return router;
}
