/**
 * What plays where and when: screen groups, placements, schedules and the takeover — and what
 * each wall and kiosk shows because of them (the screen feature the hub carries: screen-feature.ts).
 */
import { wholeNumber } from '../../env.ts';
import { defineModule, type ModuleJobs } from '../module.ts';
import { scenesModule } from '../scenes/scenes.module.ts';
import { PROGRAMME_CHANGES, programmePushes } from './programme.changes.ts';
import { ProgrammeBoundary, ScheduleEntry, ScreenGroup, ScreenPlacement, Takeover } from './programme.entity.ts';
import { createProgrammeJobs, type ProgrammeJobs } from './programme.jobs.ts';
import { programmeRouter } from './programme.routes.ts';
import { sceneUse } from './programme.service.ts';
import { DEFAULT_FLIP_LEAD_MS, screenFeature } from './screen-feature.ts';
import { createAssignmentFeed, type AssignmentFeed } from './screen-assignments.ts';
import type { ScreenRouter } from './screen-router.ts';
import { createScreenRouter } from './screen-routing.ts';

export interface ProgrammeSettings {
  /** SCENE_FLIP_LEAD_MS: how long after a commit screens show a change (boundaries are queued this long early). */
  flipLeadMs: number;
}

export interface ProgrammeApi {
  router: ScreenRouter;
  boundaries: ProgrammeJobs | undefined;
  /** What each screen was told to show, from which instant (proof of play keeps it). */
  assignments: AssignmentFeed;
  /** SCENE_FLIP_LEAD_MS: a screen told late may flip up to this late. */
  flipLeadMs: number;
}

const STEERING: ReadonlySet<string> = new Set(PROGRAMME_CHANGES);

export const programmeModule = defineModule<ProgrammeSettings, ProgrammeApi>({
  name: 'programme',
  entities: [ScreenGroup, ScreenPlacement, ScheduleEntry, Takeover, ProgrammeBoundary],
  settings: {
    env: { SCENE_FLIP_LEAD_MS: wholeNumber(0, 10_000, DEFAULT_FLIP_LEAD_MS) },
    read: (e) => ({ flipLeadMs: e.SCENE_FLIP_LEAD_MS as number }),
  },
  setup({ orm, commands, now, jobs, settings, use }) {
    // A scene the programme shows (a schedule, the takeover, a group) cannot be deleted.
    use(scenesModule).refuseDeleteWhen(sceneUse);
    return {
      router: createScreenRouter({ orm, commands, now }),
      boundaries: jobs ? createProgrammeJobs({ ...jobs, flipLeadMs: settings.flipLeadMs, now }) : undefined,
      assignments: createAssignmentFeed(),
      flipLeadMs: settings.flipLeadMs,
    };
  },
  screens: ({ settings, use }, api) => screenFeature({ router: api.router, directory: use(scenesModule).directory, flipLeadMs: settings.flipLeadMs, assignments: api.assignments }),
  routes: ({ commands, now }) => [programmeRouter({ commands, now })],
  pushes: ({ orm, now }) => programmePushes(orm, now),
  reactions({ logger }, api) {
    const boundaries = api.boundaries;
    if (!boundaries) return [];
    return [
      {
        // A changed schedule or takeover may move the next boundary (a boundary queues the one after itself).
        name: 'queue the next schedule boundary when the programme changes',
        on: (changes) => {
          if (changes.some((c) => STEERING.has(c.type) && c.type !== 'schedule.boundary')) void boundaries.sync().catch((err: unknown) => logger.warn({ err }, 'could not queue the next schedule boundary'));
        },
      },
    ];
  },
  jobs: (_context, api): ModuleJobs | undefined => (api.boundaries ? { start: () => api.boundaries!.start(), stop: () => undefined } : undefined),
});
