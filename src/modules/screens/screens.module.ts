/**
 * The screens themselves: which browsers are screens (enrolment: pairing codes, approval,
 * credentials, revocation — or every wall and kiosk, with SCREEN_APPROVAL=off), who was connected
 * when (sightings and sessions, so offline screens stay listed and uptime can be drawn), what
 * they report of themselves (their players, clock, flips, offline start, dropped frames), which
 * streams screens show now, and commands to them.
 */
import { flag } from '../../env.ts';
import { defineModule } from '../module.ts';
import { scenesModule } from '../scenes/scenes.module.ts';
import { enrolmentAdmission, type EnrolmentSettings } from './enrolment.admission.ts';
import { changesOf } from '../../domain/changes.ts';
import { enrolledRoom, enrolmentPushes } from './enrolment.changes.ts';
import { EnrolledScreen, ScreenPairing } from './enrolment.entity.ts';
import { enrolmentRouter } from './enrolment.routes.ts';
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

/** Pairing requests one address may make per quarter hour (codes last that long). */
const PAIRING_REQUESTS_PER_15_MIN = 30;

export const screensModule = defineModule<EnrolmentSettings, ScreensApi>({
  name: 'screens',
  entities: [ScreenSighting, ScreenSession, EnrolledScreen, ScreenPairing],
  settings: {
    env: { SCREEN_APPROVAL: flag(true) },
    read: (e) => ({ approval: e.SCREEN_APPROVAL as boolean }),
  },
  setup: ({ screens, use }) => ({ streamsOnScreens: streamsOnScreens(() => screens.list(), use(scenesModule).directory) }),
  admission: ({ orm, settings, now }) => enrolmentAdmission({ orm, settings, now }),
  presenceJournal: ({ orm, logger }) => screenJournal(orm, { logger }),
  pushes: () => enrolmentPushes(),
  reports: () => ({ name: 'screens', declares: screenReports }),
  metrics: () => [videoFrames],
  routes: ({ screens, commands, settings, now, limits }) => [
    screensRouter({ listScreens: (options) => screens.list(options), commandScreens: (command, id) => screens.command(command, id) }),
    enrolmentRouter({
      commands,
      approval: settings.approval,
      now,
      pairingLimit: limits.limiter('screen-pairing', PAIRING_REQUESTS_PER_15_MIN, 15 * 60),
    }),
  ],
  // However it was revoked, a screen is let go on every node (it reconnects, is refused and pairs again).
  reactions: ({ screens }) => [
    { name: 'let revoked screens go', on: (changes) => changesOf(changes, 'screen.revoked').forEach((c) => screens.dismiss(enrolledRoom(c.screenId))) },
  ],
});
