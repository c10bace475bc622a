/**
 * The ORM's types and configuration; migrations come from the static list in
 * migrations/index.ts (no file globbing, so the same code runs from source, in tests and in the
 * container). The entities are the modules' (src/orm.ts starts the ORM with them).
 */
import { Migrator } from '@mikro-orm/migrations';
import { defineConfig, type MikroORM } from '@mikro-orm/postgresql';
import { fileURLToPath } from 'node:url';
import { migrationsList } from '../migrations/index.ts';
import { NatureWallDriver } from './database/platform.ts';
import type { Logger } from './logger.ts';
export type { EntityManager } from '@mikro-orm/postgresql';
export type Orm = MikroORM;
/** An entity is any class the ORM maps. */
export type EntityClass = abstract new (...args: never[]) => object;

export const migrationsPath = fileURLToPath(new URL('../migrations', import.meta.url));

export interface OrmOptions {
  url: string;
  poolMax?: number;
  logger?: Logger;
}

/** The ORM's configuration for these entities (src/orm.ts hands it the modules'). */
export function ormConfig(options: OrmOptions & { entities: readonly EntityClass[] }) {
  const log = options.logger?.child({ component: 'orm' });
  return defineConfig({
    driver: NatureWallDriver,
    clientUrl: options.url,
    entities: [...options.entities],
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
