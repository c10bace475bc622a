/**
 * The ORM: entity list, configuration and start-up. Every module's entity is registered here,
 * and migrations come from the static list in migrations/index.ts (no file globbing, so the
 * same code runs from source, in tests and in the container).
 */
import { Migrator } from '@mikro-orm/migrations';
import { defineConfig, MikroORM } from '@mikro-orm/postgresql';
import { fileURLToPath } from 'node:url';
import { migrationsList } from '../migrations/index.ts';
import type { Logger } from './logger.ts';
import { AccountLink, AdminSession, AdminUser, ApiToken } from './modules/auth/auth.entity.ts';
import { DiscoveryJob, DiscoverySource, DiscoveryStat } from './modules/discovery/discovery.entity.ts';
import { SystemConfig } from './modules/config/system-config.entity.ts';
import { Scene, SceneStream } from './modules/scenes/scene.entity.ts';
import { QualityAnalysis, QualityRun } from './modules/quality/quality.entity.ts';
import { EvaluationItem, HumanEvaluation } from './modules/evaluation/evaluation.entity.ts';
import { Stream } from './modules/streams/stream.entity.ts';
import { StreamStill } from './modules/streams/stream-still.entity.ts';
import { Submission } from './modules/submissions/submission.entity.ts';
import { SocketIoAttachment } from './realtime/attachment.entity.ts';
import { Activity } from './modules/activity/activity.entity.ts';
import { AlertDelivery, AlertDestination, AlertIncident, AlertRule } from './modules/alerts/alerts.entity.ts';
import { ProgrammeBoundary, ScheduleEntry, ScreenGroup, ScreenPlacement, Takeover } from './modules/programme/programme.entity.ts';
import { ScreenSighting } from './modules/screens/screen-sighting.entity.ts';
import { ScreenSession } from './modules/screens/screen-session.entity.ts';
import { StreamHealthChange } from './modules/streams/stream-health-change.entity.ts';

export type { EntityManager } from '@mikro-orm/postgresql';
export type Orm = MikroORM;

export const entities = [Stream, StreamStill, Scene, SceneStream, SystemConfig, DiscoverySource, DiscoveryJob, DiscoveryStat, Submission, SocketIoAttachment, AdminUser, AdminSession, ApiToken, AccountLink, Activity, ScreenSighting, ScreenSession, StreamHealthChange, QualityAnalysis, QualityRun, EvaluationItem, HumanEvaluation, ScreenGroup, ScreenPlacement, ScheduleEntry, Takeover, ProgrammeBoundary, AlertRule, AlertDestination, AlertIncident, AlertDelivery];

export const migrationsPath = fileURLToPath(new URL('../migrations', import.meta.url));

export function ormConfig(options: { url: string; poolMax?: number; logger?: Logger }) {
  const log = options.logger?.child({ component: 'orm' });
  return defineConfig({
    clientUrl: options.url,
    entities,
    extensions: [Migrator],
    migrations: {
      path: migrationsPath,
      migrationsList,
      transactional: true,
      allOrNothing: true,
      snapshot: true,
      snapshotOnMigrate: false,
      snapshotName: '.snapshot-naturewall',
      silent: true,
    },
    pool: { min: 0, max: options.poolMax ?? 10 },
    // Dates travel as ISO strings in DTOs; keep them as Date objects inside.
    forceUtcTimezone: true,
    debug: false,
    logger: (message) => log?.debug(message),
  });
}

export async function initORM(options: { url: string; poolMax?: number; logger?: Logger }): Promise<Orm> {
  return MikroORM.init(ormConfig(options));
}

/** Applies every pending migration, all or nothing. Returns the names applied. */
export async function migrate(orm: Orm): Promise<string[]> {
  const applied = await orm.migrator.up();
  return applied.map((m) => m.name);
}
