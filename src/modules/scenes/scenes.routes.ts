import Router from '@koa/router';
import { sceneEndpoints as api, type SceneDto } from '../../shared/api/index.ts';
import type { AppState } from '../../http/context.ts';
import { runAs, type CommandDeps } from '../../domain/command.ts';
import { notFound } from '../../domain/errors.ts';
import { frozenJson } from '../../http/frozen-json.ts';
import { mount } from '../../http/route.ts';
import type { EntityManager } from '../../db.ts';
import type { Scene } from './scene.entity.ts';
import { presentScene } from './scene.presenter.ts';
import type { SceneSnapshot, SceneSnapshots } from './scene-snapshots.ts';
import {
  createScene,
  deleteScene,
  getDefaultSceneId,
  listScenes,
  loadPicks,
  loadSlots,
  updateScene,
} from './scenes.service.ts';

async function present(em: EntityManager, scenes: Scene[]): Promise<SceneDto[]> {
  const ids = scenes.map((s) => s.id);
  const [slots, picks, defaultId] = await Promise.all([loadSlots(em, ids), loadPicks(em, ids), getDefaultSceneId(em)]);
  return scenes.map((scene) => presentScene(scene, slots.get(scene.id) ?? [], defaultId, picks.get(scene.id)));
}

/** The DTO of one scene just written (present() answers one per scene given). */
async function presentOne(em: EntityManager, scene: Scene): Promise<SceneDto> {
  const [dto] = await present(em, [scene]);
  return dto!;
}

async function snapshotOf(snapshots: SceneSnapshots, idOrSlug: string): Promise<SceneSnapshot> {
  const snapshot = await snapshots.byRef(idOrSlug);
  if (!snapshot) throw notFound(`Scene not found: ${idOrSlug}`);
  return snapshot;
}

export interface SceneRouteDeps {
  commands: CommandDeps;
  snapshots: SceneSnapshots;
  /** What else shows a scene (the programme: schedules, the takeover, groups), as a sentence; null when nothing. */
  sceneInUse?: (em: EntityManager, sceneId: number) => Promise<string | null>;
}

export function scenesRouter(deps: SceneRouteDeps): Router<AppState> {
  const router = new Router<AppState>();

  // Anonymous callers see active scenes only (soft-deleted ones are admin business).
  mount(router, api.list)(async (ctx, { query }) => {
    const admin = await ctx.state.actor();
    if (!admin && query.active === false) return [];
    return present(ctx.state.em, await listScenes(ctx.state.em, { active: admin ? query.active : true }));
  });

  // Screens read these on every load: they come from the snapshot cache, serialised once.
  mount(router, api.get)(async (_ctx, { params }) => frozenJson((await snapshotOf(deps.snapshots, params.idOrSlug)).scene));

  mount(router, api.streams)(async (_ctx, { params }) => frozenJson((await snapshotOf(deps.snapshots, params.idOrSlug)).streams));

  mount(router, api.create)(async (ctx, { body }) => {
    const scene = await runAs(ctx, deps.commands, (tx, changes) => createScene(tx, changes, body));
    return presentOne(ctx.state.em, scene);
  });

  mount(router, api.update)(async (ctx, { body }) => {
    const scene = await runAs(ctx, deps.commands, (tx, changes) => updateScene(tx, changes, body));
    return { success: true, scene: await presentOne(ctx.state.em, scene) };
  });

  mount(router, api.remove)(async (ctx, { body }) => {
    await runAs(ctx, deps.commands, (tx, changes) => deleteScene(tx, changes, body.id, deps.sceneInUse));
    return { success: true };
  });

  return router;
}
