/** Scenes: what a wall shows — their streams by slot, the default scene, and the scenes that follow the sun. */
import type { EntityManager } from '../../db.ts';
import { defineModule, type Reaction } from '../module.ts';
import { createDaylightJobs, movesCrossing, type DaylightJobs } from './daylight.jobs.ts';
import { defaultSceneRouter } from './default-scene.routes.ts';
import { scenePushes } from './scene.changes.ts';
import { createSceneDirectory, type SceneDirectory } from './scene-directory.ts';
import { Scene, SceneStream } from './scene.entity.ts';
import { SceneSnapshots } from './scene-snapshots.ts';
import { scenesRouter } from './scenes.routes.ts';
import { scenesPlacing } from './scenes.service.ts';
import { streamsModule } from '../streams/streams.module.ts';

/** What else shows a scene (a schedule, the takeover…), as a sentence; null when nothing does. */
export type SceneUseCheck = (em: EntityManager, sceneId: number) => Promise<string | null>;

export interface ScenesApi {
  snapshots: SceneSnapshots;
  directory: SceneDirectory;
  daylight: DaylightJobs | undefined;
  /** Another module says when a scene it shows may not be deleted (the programme does). */
  refuseDeleteWhen(check: SceneUseCheck): void;
}

export const scenesModule = defineModule<undefined, ScenesApi & { sceneInUse: SceneUseCheck }>({
  name: 'scenes',
  entities: [Scene, SceneStream],
  setup({ orm, now, jobs, use }) {
    use(streamsModule).answerPlacements(scenesPlacing);
    const snapshots = new SceneSnapshots(orm, { now });
    const checks: SceneUseCheck[] = [];
    return {
      snapshots,
      directory: createSceneDirectory(orm, snapshots),
      daylight: jobs ? createDaylightJobs({ ...jobs, snapshots }) : undefined,
      refuseDeleteWhen: (check) => void checks.push(check),
      async sceneInUse(em, sceneId) {
        for (const check of checks) {
          const use = await check(em, sceneId);
          if (use) return use;
        }
        return null;
      },
    };
  },
  routes: ({ commands }, api) => [scenesRouter({ commands, snapshots: api.snapshots, sceneInUse: api.sceneInUse }), defaultSceneRouter({ commands, snapshots: api.snapshots })],
  pushes: (_context, api) => scenePushes(api.directory),
  reactions({ logger }, api) {
    const reactions: Reaction[] = [{ name: 'forget the scenes cached on this node (a write reads its own result)', on: () => api.directory.invalidate() }];
    const daylight = api.daylight;
    if (daylight) {
      reactions.push({
        name: 'queue the next daylight crossing when a scene changes',
        on: (changes) => {
          if (movesCrossing(changes)) void daylight.sync().catch((err: unknown) => logger.warn({ err }, 'could not queue the next daylight crossing'));
        },
      });
    }
    return reactions;
  },
  jobs: (_context, api) => api.daylight,
});
