/**
 * Backups (issue 42): one at a time across the cluster (an advisory lock), each attempt recorded
 * (`backups`), the dump written by src/database/backup-file.ts into BACKUP_DIR, and — only after
 * a good one — the oldest files beyond BACKUP_KEEP deleted, so a failed dump never costs a good
 * backup. The schedule's period (from BACKUP_CRON) says when the newest good one is stale.
 */
import { constants } from 'node:fs';
import { access, mkdir, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { CronExpressionParser } from 'cron-parser';
import pg from 'pg';
import type { EntityManager } from '../../db.ts';
import type { Logger } from '../../logger.ts';
import { BACKUP_NAME, backupName, writeBackup } from '../../database/backup-file.ts';
import type { BackupDto, BackupsDto, BACKUP_TRIGGERS } from '../../shared/api/backups.ts';

export interface BackupSettings {
  /** BACKUP_DIR, resolved. */
  dir: string;
  /** BACKUP_CRON (null: off). */
  cron: string | null;
  /** BACKUP_KEEP. */
  keep: number;
  /** The zone the schedule's hours are in (the process's). */
  timeZone: string;
}

export type BackupTrigger = (typeof BACKUP_TRIGGERS)[number];

/** The lock every backup takes (one at a time, whichever node or command). */
const LOCK = 'nature-wall:backup';

export class BackupBusy extends Error {}

interface Row {
  id: number;
  file: string;
  trigger: BackupTrigger;
  node: string;
  started_at: string;
  finished_at: string | null;
  ok: boolean | null;
  bytes: string | null;
  tables: number | null;
  rows: string | null;
  error: string | null;
}

const present = (r: Row): BackupDto => ({
  id: r.id,
  file: r.file,
  trigger: r.trigger,
  node: r.node,
  started_at: new Date(r.started_at).toISOString(),
  finished_at: r.finished_at ? new Date(r.finished_at).toISOString() : null,
  ok: r.ok,
  bytes: r.bytes === null ? null : Number(r.bytes),
  tables: r.tables,
  rows: r.rows === null ? null : Number(r.rows),
  error: r.error,
});

/** Why a folder cannot take a backup, in a sentence (null: it can). */
async function folderProblem(dir: string): Promise<string | null> {
  try {
    await mkdir(dir, { recursive: true });
    await access(dir, constants.W_OK);
    return null;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'EACCES' || code === 'EPERM' ? 'it is not writable' : code === 'ENOTDIR' || code === 'EEXIST' ? 'a file is in the way' : code === 'ENOSPC' ? 'the disk is full' : (error as Error).message;
    return `The backup folder ${dir} cannot be used: ${why} (BACKUP_DIR)`;
  }
}

/** What a failed dump says, as one sentence. */
function failure(error: unknown, dir: string): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOSPC') return `The disk of ${dir} is full: the backup was not written (the backups already there are kept)`;
  if (code === 'EACCES' || code === 'EPERM') return `The backup folder ${dir} is not writable`;
  return `The backup failed: ${error instanceof Error ? error.message : String(error)}`;
}

/**
 * Takes a backup of the database at `url` into `settings.dir`, recorded in `em`'s database (the
 * same one). Throws BackupBusy while another runs; a backup that fails is recorded and answered
 * (`ok: false`), never thrown.
 */
export async function takeBackup(deps: { em: EntityManager; url: string; settings: BackupSettings; trigger: BackupTrigger; logger: Logger; now?: () => Date }): Promise<BackupDto> {
  const { em, settings, logger } = deps;
  const now = deps.now ?? (() => new Date());
  const client = new pg.Client({ connectionString: deps.url, application_name: 'nature-wall-backup' });
  client.on('error', (err) => logger.debug({ err }, 'backup: connection dropped'));
  await client.connect();
  try {
    const { rows: [locked] } = await client.query<{ ok: boolean }>('select pg_try_advisory_lock(hashtext($1)) as ok', [LOCK]);
    if (!locked!.ok) {
      const running = await em.execute<Row[]>('select * from backups where ok is null order by started_at desc limit 1', [], 'all');
      throw new BackupBusy(running[0] ? `A backup is already running (started ${new Date(running[0].started_at).toISOString()} on ${running[0].node})` : 'A backup is already running');
    }
    // Whatever is still marked running was cut short (a node that died, or a database restored from a backup taken then): this one holds the lock.
    await em.execute(`update backups set ok = false, finished_at = coalesce(finished_at, now()), error = 'Interrupted before it finished' where ok is null`, [], 'run');
    const startedAt = now();
    const file = backupName(startedAt);
    const [row] = await em.execute<Row[]>(
      'insert into backups (file, trigger, node, started_at) values (?, ?, ?, ?) returning *',
      [file, deps.trigger, os.hostname(), startedAt],
      'all',
    );
    const finish = async (values: { ok: boolean; bytes?: number; tables?: number; rows?: number; error?: string }) =>
      present(
        (
          await em.execute<Row[]>('update backups set finished_at = ?, ok = ?, bytes = ?, tables = ?, rows = ?, error = ? where id = ? returning *', [
            now(),
            values.ok,
            values.bytes ?? null,
            values.tables ?? null,
            values.rows ?? null,
            values.error ?? null,
            row!.id,
          ])
        )[0]!,
      );
    const problem = await folderProblem(settings.dir);
    if (problem) {
      logger.error({ dir: settings.dir }, problem);
      return await finish({ ok: false, error: problem });
    }
    // A .partial file left here is a dump that never finished (this one holds the lock).
    for (const name of await readdir(settings.dir)) if (name.endsWith('.backup.gz.partial')) await rm(path.join(settings.dir, name), { force: true });
    let written;
    try {
      written = await writeBackup(client, path.join(settings.dir, file), startedAt);
    } catch (error) {
      const message = failure(error, settings.dir);
      logger.error({ err: error, file }, message);
      return await finish({ ok: false, error: message });
    }
    const result = await finish({ ok: true, bytes: written.bytes, tables: Object.keys(written.rows).length, rows: Object.values(written.rows).reduce((a, b) => a + b, 0) });
    await pruneBackups(settings.dir, settings.keep).catch((err: unknown) => logger.warn({ err, dir: settings.dir }, 'backup: could not delete old backups'));
    logger.info({ file, bytes: written.bytes, trigger: deps.trigger }, 'backup written');
    return result;
  } finally {
    await client.query('select pg_advisory_unlock_all()').catch(() => undefined);
    await client.end().catch(() => undefined);
  }
}

/**
 * A database restored from `file`: that backup's own attempt, still running in the snapshot it
 * took, evidently finished — it is marked good (with the file's size and the time it was taken).
 */
export async function markRestoredFrom(em: EntityManager, file: string, bytes: number, takenAt: Date): Promise<void> {
  await em.execute('update backups set ok = true, finished_at = coalesce(finished_at, ?), bytes = coalesce(bytes, ?) where file = ? and ok is null', [takenAt, bytes, file], 'run');
}

/** Deletes the oldest backup files in `dir` beyond the newest `keep` (only files named as backups are). */
export async function pruneBackups(dir: string, keep: number): Promise<string[]> {
  const files = (await readdir(dir)).filter((name) => BACKUP_NAME.test(name)).sort();
  const old = files.slice(0, Math.max(0, files.length - keep));
  for (const name of old) await rm(path.join(dir, name), { force: true });
  return old;
}

/** The time between two runs of `cron` after `from`, and the next run (null: no schedule). */
export function schedulePeriod(cron: string | null, timeZone: string, from: Date): { periodMs: number; next: Date } | null {
  if (!cron) return null;
  const it = CronExpressionParser.parse(cron, { tz: timeZone, currentDate: from });
  const next = it.next().toDate();
  const after = it.next().toDate();
  return { periodMs: after.getTime() - next.getTime(), next };
}

/** Whether the newest good backup is too old: more than two periods (none at all counts once a period has passed since `since`). */
export function isStale(newestOkAt: Date | null, periodMs: number | null, now: Date, since: Date): boolean {
  if (periodMs === null) return false;
  return (newestOkAt ?? since).getTime() < now.getTime() - 2 * periodMs;
}

/** The newest good backup's finish (null: none). */
export async function newestBackupAt(em: EntityManager): Promise<Date | null> {
  const rows = await em.execute<{ at: string | null }[]>('select max(finished_at) as at from backups where ok', [], 'all');
  return rows[0]?.at ? new Date(rows[0].at) : null;
}

export interface Staleness {
  stale: boolean;
  /** When the newest good backup finished (null: none yet). */
  newestAt: Date | null;
  /** The schedule's period (null: no schedule). */
  periodMs: number | null;
}

/**
 * Whether backups are overdue — one rule for the console and the `backup_stale` alert: the newest
 * good one is older than two periods, or there is none and the first attempt is (with no attempt
 * at all yet, the first scheduled one has not come: not stale).
 */
export async function backupStaleness(em: EntityManager, settings: BackupSettings, now: Date): Promise<Staleness> {
  const [row] = await em.execute<{ newest: string | null; first: string | null }[]>(
    'select max(finished_at) filter (where ok) as newest, min(started_at) as first from backups',
    [],
    'all',
  );
  const newestAt = row?.newest ? new Date(row.newest) : null;
  const periodMs = schedulePeriod(settings.cron, settings.timeZone, now)?.periodMs ?? null;
  return { stale: row?.first ? isStale(newestAt, periodMs, now, new Date(row.first)) : false, newestAt, periodMs };
}

/** GET /api/backups. */
export async function backupStatus(em: EntityManager, settings: BackupSettings, now: Date): Promise<BackupsDto> {
  const recent = (await em.execute<Row[]>('select * from backups order by started_at desc, id desc limit 30', [], 'all')).map(present);
  const newest = (await em.execute<Row[]>('select * from backups where ok order by finished_at desc limit 1', [], 'all'))[0];
  const period = schedulePeriod(settings.cron, settings.timeZone, now);
  return {
    dir: settings.dir,
    schedule: settings.cron,
    keep: settings.keep,
    period_seconds: period ? period.periodMs / 1000 : null,
    next_at: period ? period.next.toISOString() : null,
    newest_ok: newest ? present(newest) : null,
    stale: (await backupStaleness(em, settings, now)).stale,
    recent,
  };
}
