/**
 * Every feature module, in the order they are set up (a module may use the ones before it).
 * Adding a module adds one line here; src/app.ts, src/config.ts and src/db.ts read this list.
 */
import { activityModule } from './activity/activity.module.ts';
import { alertsModule } from './alerts/alerts.module.ts';
import { authModule } from './auth/auth.module.ts';
import { configModule } from './config/config.module.ts';
import { discoveryModule } from './discovery/discovery.module.ts';
import { evaluationModule } from './evaluation/evaluation.module.ts';
import type { AnyModule } from './module.ts';
import { platformsModule } from './platforms/platforms.module.ts';
import { backupsModule } from './backups/backups.module.ts';
import { playsModule } from './plays/plays.module.ts';
import { programmeModule } from './programme/programme.module.ts';
import { qualityModule } from './quality/quality.module.ts';
import { scenesModule } from './scenes/scenes.module.ts';
import { screensModule } from './screens/screens.module.ts';
import { streamsModule } from './streams/streams.module.ts';
import { submissionsModule } from './submissions/submissions.module.ts';
import { systemModule } from './system/system.module.ts';
import { weatherModule } from './weather/weather.module.ts';

export const MODULES: readonly AnyModule[] = [
  activityModule,
  configModule,
  authModule,
  platformsModule,
  streamsModule,
  scenesModule,
  programmeModule,
  screensModule,
  playsModule,
  backupsModule,
  qualityModule,
  discoveryModule,
  submissionsModule,
  evaluationModule,
  alertsModule,
  systemModule,
  weatherModule,
];
