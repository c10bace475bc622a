/** `npm run migrate`: applies pending migrations to DATABASE_URL, or to the embedded cluster in DATA_DIR. */
import { loadConfig } from '../src/config.ts';
import { initORM, migrate } from '../src/orm.ts';
import { startEmbeddedPostgres } from '../src/embedded-postgres.ts';
import { createLogger } from '../src/logger.ts';

const config = loadConfig();
const logger = createLogger(config.logLevel);
const embedded = config.databaseUrl
  ? undefined
  : await startEmbeddedPostgres({ dataDir: config.dataDir, port: config.embeddedPgPort, logger });
const orm = await initORM({ url: config.databaseUrl ?? embedded!.url, logger });
try {
  const applied = await migrate(orm);
  logger.info({ migrations: applied }, applied.length ? 'applied migrations' : 'database is up to date');
} finally {
  await orm.close();
  await embedded?.stop();
}
