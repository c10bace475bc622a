/**
 * `npm run migration:create -- <name>`: writes migrations/Migration<timestamp>_<name>.ts from
 * the difference between the entities and the schema snapshot, then prints the line to add
 * to migrations/index.ts. Uses DATABASE_URL, or a throw-away embedded cluster.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { initORM, migrate } from '../src/orm.ts';
import { startEmbeddedPostgres } from '../src/embedded-postgres.ts';
import { createLogger } from '../src/logger.ts';

const name = process.argv[2] ?? 'change';
const logger = createLogger('warn');
const dataDir = process.env.DATABASE_URL ? undefined : await mkdtemp(path.join(os.tmpdir(), 'nw-migration-'));
const embedded = dataDir ? await startEmbeddedPostgres({ dataDir, logger }) : undefined;
const orm = await initORM({ url: process.env.DATABASE_URL ?? embedded!.url, logger });
try {
  const initial = (await orm.migrator.getExecuted()).length === 0 && (await orm.migrator.getPending()).length === 0;
  if (!initial) await migrate(orm);
  const result = await orm.migrator.create(undefined, false, initial, name);
  if (!result.fileName) console.log('No schema changes: nothing written.');
  else {
    const className = result.fileName.replace(/\.ts$/, '');
    console.log(`Wrote migrations/${result.fileName}. Add to migrations/index.ts:`);
    console.log(`  import { ${className} } from './${result.fileName}';`);
    console.log(`  { name: '${className}', class: ${className} },`);
  }
} finally {
  await orm.close();
  await embedded?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
}
