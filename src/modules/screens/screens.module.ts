/**
 * The screens themselves: who was connected when (sightings and sessions, so offline screens
 * stay listed and uptime can be drawn), what they report of themselves (their players, clock,
 * flips, offline start, dropped frames), which streams screens show now, and commands to them.
 */
import { defineModule } from '../module.ts';
import { scenesModule } from '../scenes/scenes.module.ts';
import { screenJournal } from './screen-journal.ts';
import { ScreenSession } from './screen-session.entity.ts';
import { ScreenSighting } from './screen-sighting.entity.ts';
import { videoFrames } from './screens.metrics.ts';
import { screenReports } from './screens.reports.ts';
import { screensRouter } from './screens.routes.ts';
import { streamsOnScreens } from './streams-on-screens.ts';

export interface ScreensApi {
  /** The streams walls and kiosks show now, cluster-wide (quality and alerts ask). */
  streamsOnScreens: () => Promise<ReadonlySet<number>>;
}

export const screensModule = defineModule<undefined, ScreensApi>({
  name: 'screens',
  entities: [ScreenSighting, ScreenSession],
  setup: ({ screens, use }) => ({ streamsOnScreens: streamsOnScreens(() => screens.list(), use(scenesModule).directory) }),
  presenceJournal: ({ orm, logger }) => screenJournal(orm, { logger }),
  reports: () => ({ name: 'screens', declares: screenReports }),
  metrics: () => [videoFrames],
  routes: ({ screens }) => [screensRouter({ listScreens: (options) => screens.list(options), commandScreens: (command, id) => screens.command(command, id) })],
});
