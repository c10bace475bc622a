/**
 * Scenes: what a wall shows — their streams by slot, the default scene, the scenes that follow
 * the sun, and ranked scenes' picks (the best cameras now).
 */
import type { EntityManager } from '../../db.ts';
import { number, wholeNumber } from '../../env.ts';
import { allJobs, defineModule, type Reaction } from '../module.ts';
import { createRankingJobs, DEFAULT_RANKING_SETTINGS, type RankingJobs, type RankingSettings } from './ranking.jobs.ts';
import { createDaylightJobs, movesCrossing, type DaylightJobs } from './daylight.jobs.ts';
import { defaultSceneRouter } from './default-scene.routes.ts';
import { scenePushes } from './scene.changes.ts';
import { createSceneDirectory, type SceneDirectory } from './scene-directory.ts';
import { RankedPick, Scene, SceneStream } from './scene.entity.ts';
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
  ranking: RankingJobs;
  /** Another module says when a scene it shows may not be deleted (the programme does). */
  refuseDeleteWhen(check: SceneUseCheck): void;
}

export const scenesModule = defineModule<RankingSettings, ScenesApi & { sceneInUse: SceneUseCheck }>({
  name: 'scenes',
  entities: [Scene, SceneStream, RankedPick],
  settings: {
    env: {
      RANKED_CHECK_SECONDS: wholeNumber(1, 3600, DEFAULT_RANKING_SETTINGS.checkSeconds),
      RANKED_MIN_ON_SCREEN_SECONDS: wholeNumber(0, 86_400, DEFAULT_RANKING_SETTINGS.minOnScreenMs / 1000),
      RANKED_MARGIN: number(0, 100, DEFAULT_RANKING_SETTINGS.margin),
    },
    read: (e) => ({ ...DEFAULT_RANKING_SETTINGS, checkSeconds: e.RANKED_CHECK_SECONDS as number, minOnScreenMs: (e.RANKED_MIN_ON_SCREEN_SECONDS as number) * 1000, margin: e.RANKED_MARGIN as number }),
  },
  setup({ orm, now, jobs, use, commands, logger, settings }) {
    use(streamsModule).answerPlacements(scenesPlacing);
    const snapshots = new SceneSnapshots(orm, { now });
    const checks: SceneUseCheck[] = [];
    return {
      snapshots,
      directory: createSceneDirectory(orm, snapshots),
      daylight: jobs ? createDaylightJobs({ ...jobs, snapshots }) : undefined,
      ranking: createRankingJobs({ orm, commands, logger, settings, now, work: jobs?.work ?? false }),
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
    const reactions: Reaction[] = [
      { name: 'forget the scenes cached on this node (a write reads its own result)', on: () => api.directory.invalidate() },
      { name: 'look at the ranked scenes again when a stream changes', on: (changes) => api.ranking.committed(changes) },
    ];
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
  jobs: (_context, api) => allJobs(api.daylight, api.ranking),
});
