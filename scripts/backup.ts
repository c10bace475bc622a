/**
 * `npm run backup`: writes a backup of the database (DATABASE_URL, or the embedded one in
 * DATA_DIR — beside a running server, or started for the purpose when none runs) into BACKUP_DIR,
 * keeps the last BACKUP_KEEP, and prints the file. Exits 1 with a sentence when it cannot.
 * `--dir <folder>` writes into another folder (kept apart: nothing there is deleted).
 */
import path from 'node:path';
import { loadConfig, settingsOf } from '../src/config.ts';
import { runningEmbeddedUrl, startEmbeddedPostgres } from '../src/embedded-postgres.ts';
import { createLogger } from '../src/logger.ts';
import { backupsModule } from '../src/modules/backups/backups.module.ts';
import { BackupBusy, takeBackup } from '../src/modules/backups/backups.service.ts';
import { MODULES } from '../src/modules/index.ts';
import { initORM, migrate } from '../src/orm.ts';

const args = process.argv.slice(2);
const dirAt = args.indexOf('--dir');
const unknown = args.filter((a, i) => a !== '--dir' && i !== dirAt + 1);
if (unknown.length > 0 || (dirAt >= 0 && !args[dirAt + 1])) {
  console.error('usage: npm run backup [-- --dir <folder>]');
  process.exit(2);
}

const config = loadConfig(process.env, MODULES);
const settings = settingsOf(config, backupsModule);
const logger = createLogger('warn');
const running = config.databaseUrl ? null : await runningEmbeddedUrl(config.dataDir);
const embedded = config.databaseUrl || running ? undefined : await startEmbeddedPostgres({ dataDir: config.dataDir, port: config.embeddedPgPort, logger });
const url = config.databaseUrl ?? running ?? embedded!.url;
const orm = await initORM({ url, poolMax: 2, logger });
let exitCode = 0;
try {
  await migrate(orm);
  const dir = dirAt >= 0 ? path.resolve(args[dirAt + 1]!) : settings.dir;
  const backup = await takeBackup({ em: orm.em.fork(), url, settings: { ...settings, dir, keep: dirAt >= 0 ? Number.MAX_SAFE_INTEGER : settings.keep }, trigger: 'command', logger });
  if (backup.ok) {
    console.log(`Backup written: ${path.join(dir, backup.file)} (${backup.tables} tables, ${backup.rows} rows, ${((backup.bytes ?? 0) / 1024).toFixed(1)} KB)`);
  } else {
    console.error(backup.error);
    exitCode = 1;
  }
} catch (error) {
  console.error(error instanceof BackupBusy || error instanceof Error ? error.message : error);
  exitCode = 1;
} finally {
  await orm.close();
  await embedded?.stop();
}
process.exit(exitCode);
