/**
 * `npm run restore -- <file> [--replace]`: restores a backup (`npm run backup`) into the database
 * (DATABASE_URL, or the embedded one in DATA_DIR — stop the server first), migrates it to this
 * release, and prints the rows per table and whether an administrator can sign in. Refuses a
 * database that holds data unless `--replace` is given; a failed restore leaves the database as
 * it was. Exits 1 with a sentence when it cannot.
 */
import { loadConfig } from '../src/config.ts';
import { BackupError } from '../src/database/backup-file.ts';
import { runningEmbeddedUrl, startEmbeddedPostgres } from '../src/embedded-postgres.ts';
import { createLogger } from '../src/logger.ts';
import { MODULES } from '../src/modules/index.ts';
import { restoreBackup } from '../src/restore.ts';

const args = process.argv.slice(2);
const replace = args.includes('--replace');
const files = args.filter((a) => a !== '--replace');
if (files.length !== 1 || files[0]!.startsWith('--')) {
  console.error('usage: npm run restore -- <backup file> [--replace]');
  process.exit(2);
}

const config = loadConfig(process.env, MODULES);
const logger = createLogger('warn');
if (!config.databaseUrl && (await runningEmbeddedUrl(config.dataDir))) {
  console.error(`A server is running on the database in ${config.dataDir}: stop it first (the restore replaces what it serves).`);
  process.exit(1);
}
let embedded;
let exitCode = 0;
try {
  embedded = config.databaseUrl ? undefined : await startEmbeddedPostgres({ dataDir: config.dataDir, port: config.embeddedPgPort, logger });
  const started = Date.now();
  const report = await restoreBackup({ url: config.databaseUrl ?? embedded!.url, file: files[0]!, replace, logger });
  console.log(`Restored ${files[0]} (taken ${report.header.created_at}) in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
  if (report.migrated.length > 0) console.log(`Migrated forward: ${report.migrated.join(', ')}`);
  const width = Math.max(...Object.keys(report.tables).map((t) => t.length));
  for (const [table, rows] of Object.entries(report.tables)) console.log(`  ${table.padEnd(width)}  ${rows}`);
  console.log(report.admins > 0 ? `${report.admins} administrator(s) can sign in.` : 'No administrator can sign in: create one with npm run admin -- create <name>.');
} catch (error) {
  console.error(error instanceof BackupError || error instanceof Error ? error.message : error);
  exitCode = 1;
} finally {
  await embedded?.stop();
}
process.exit(exitCode);
