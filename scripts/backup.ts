/**
 * `npm run backup`: writes a backup of the database (DATABASE_URL, or the embedded one in
 * DATA_DIR — beside a running server, or started for the purpose when none runs) into BACKUP_DIR,
 * keeps the last BACKUP_KEEP, and prints the file. Exits 1 with a sentence when it cannot.
 * `--dir <folder>` writes into another folder (kept apart: nothing there is deleted). A backup
 * never changes what it backs up: a database of an earlier release is dumped as it is (a restore
 * migrates it) and, having no table for it yet, the attempt is not recorded in it.
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { loadConfig, settingsOf } from '../src/config.ts';
import { backupName, writeBackup } from '../src/database/backup-file.ts';
import { runningEmbeddedUrl, startEmbeddedPostgres } from '../src/embedded-postgres.ts';
import { createLogger } from '../src/logger.ts';
import { backupsModule } from '../src/modules/backups/backups.module.ts';
import { takeBackup, type BackupSettings } from '../src/modules/backups/backups.service.ts';
import { MODULES } from '../src/modules/index.ts';
import { initORM } from '../src/orm.ts';
import type { Orm } from '../src/db.ts';

const args = process.argv.slice(2);
const dirAt = args.indexOf('--dir');
const unknown = args.filter((a, i) => a !== '--dir' && i !== dirAt + 1);
if (unknown.length > 0 || (dirAt >= 0 && !args[dirAt + 1])) {
  console.error('usage: npm run backup [-- --dir <folder>]');
  process.exit(2);
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

/** The backup, and the line that says so; throws with a sentence when it cannot be taken. */
async function backUp(orm: Orm, url: string, settings: BackupSettings): Promise<string> {
  if ((await orm.migrator.getPending()).length === 0) {
    const backup = await takeBackup({ em: orm.em.fork(), url, settings, trigger: 'command', logger });
    if (!backup.ok) throw new Error(backup.error ?? 'The backup failed');
    return `Backup written: ${path.join(settings.dir, backup.file)} (${backup.tables} tables, ${backup.rows} rows, ${kb(backup.bytes ?? 0)})`;
  }
  await mkdir(settings.dir, { recursive: true });
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const file = path.join(settings.dir, backupName(new Date()));
    const written = await writeBackup(client, file);
    const rows = Object.values(written.rows).reduce((a, b) => a + b, 0);
    return `Backup written: ${file} (${Object.keys(written.rows).length} tables, ${rows} rows, ${kb(written.bytes)}; a database of an earlier release: not recorded in it)`;
  } finally {
    await client.end();
  }
}

const config = loadConfig(process.env, MODULES);
const configured = settingsOf(config, backupsModule);
const settings = dirAt >= 0 ? { ...configured, dir: path.resolve(args[dirAt + 1]!), keep: Number.MAX_SAFE_INTEGER } : configured;
const logger = createLogger('warn');
const running = config.databaseUrl ? null : await runningEmbeddedUrl(config.dataDir);
const embedded = config.databaseUrl || running ? undefined : await startEmbeddedPostgres({ dataDir: config.dataDir, port: config.embeddedPgPort, logger });
const url = config.databaseUrl ?? running ?? embedded!.url;
const orm = await initORM({ url, poolMax: 2, logger });
let exitCode = 0;
try {
  console.log(await backUp(orm, url, settings));
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  exitCode = 1;
} finally {
  await orm.close();
  await embedded?.stop();
}
process.exit(exitCode);
