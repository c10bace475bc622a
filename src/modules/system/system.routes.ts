import Router from '@koa/router';
import { runAs, type CommandDeps } from '../../domain/command.ts';
import { systemEndpoints as api } from '../../shared/api/system.ts';
import type { AppState } from '../../http/context.ts';
import { mount } from '../../http/route.ts';
import { ensureDefaultScene } from '../scenes/scenes.service.ts';
import { testDatabase } from './system.service.ts';

/** /test-db's two calls: the connection test (a database away answers 503 with its reason) and Init. */
export function systemRouter(deps: { commands: CommandDeps }): Router<AppState> {
  const router = new Router<AppState>();

  mount(router, api.database)(async (ctx) => {
    const result = await testDatabase(ctx.state.em);
    return {
      status: 'success',
      latency_ms: result.latencyMs,
      server_version: result.serverVersion,
      database: result.database,
      migrations_applied: result.migrationsApplied,
    };
  });

  mount(router, api.initialize)(async (ctx) => {
    const done = await runAs(ctx, deps.commands, (tx, changes) => ensureDefaultScene(tx, changes));
    return { created_default_scene: done.createdScene, set_default_scene_id: done.setDefault, default_scene_id: done.sceneId };
  });

  return router;
}
