/**
 * Backups (issue 42): `npm run backup` and `npm run restore` (scripts/), a schedule on the job
 * queue (BACKUP_CRON, nightly by default) that keeps the last BACKUP_KEEP in BACKUP_DIR, the
 * console's Backups tab, the age of the newest good backup in /metrics, and what the
 * `backup_stale` alert rule reads.
 */
import path from 'node:path';
import client from 'prom-client';
import { CronExpressionParser } from 'cron-parser';
import { z } from 'zod';
import type { Orm } from '../../db.ts';
import { wholeNumber } from '../../env.ts';
import { defineModule } from '../module.ts';
import { Backup } from './backup.entity.ts';
import { createBackupJobs } from './backups.jobs.ts';
import { backupsRouter } from './backups.routes.ts';
import { backupStaleness, newestBackupAt, type BackupSettings, type Staleness } from './backups.service.ts';

export const DEFAULT_BACKUP_DIR = './.data/backups';
export const DEFAULT_BACKUP_CRON = '0 3 * * *';
export const DEFAULT_BACKUP_KEEP = 14;

/** The process's own zone (TZ), UTC where it has none: "nightly" is the venue's night. */
const processZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

const validCron = (value: string) => {
  try {
    CronExpressionParser.parse(value, { strict: false });
    return true;
  } catch {
    return false;
  }
};

/** The database the ORM talks to (a backup opens its own connection to it). */
export const databaseUrlOf = (orm: Orm): string => orm.config.get('clientUrl') as string;

export interface BackupsApi {
  settings: BackupSettings;
  /** Whether the newest good backup is older than two periods, and since when it is (the alert rule's condition). */
  staleness(now: Date): Promise<Staleness>;
}

export const backupsModule = defineModule<BackupSettings, BackupsApi>({
  name: 'backups',
  entities: [Backup],
  settings: {
    env: {
      BACKUP_DIR: z.string().trim().min(1).default(DEFAULT_BACKUP_DIR),
      BACKUP_CRON: z
        .string()
        .trim()
        .default(DEFAULT_BACKUP_CRON)
        .refine((v) => v === 'off' || validCron(v), 'Expected a cron expression (e.g. "0 3 * * *": nightly at 03:00) or off'),
      BACKUP_KEEP: wholeNumber(1, 1000, DEFAULT_BACKUP_KEEP),
    },
    read: (e) => ({
      dir: path.resolve(e.BACKUP_DIR as string),
      cron: e.BACKUP_CRON === 'off' ? null : (e.BACKUP_CRON as string),
      keep: e.BACKUP_KEEP as number,
      timeZone: processZone(),
    }),
  },
  setup: ({ orm, settings }) => ({ settings, staleness: (now) => backupStaleness(orm.em.fork(), settings, now) }),
  routes: ({ orm, settings, logger, now }) => [backupsRouter({ settings, url: databaseUrlOf(orm), logger, now })],
  jobs: ({ jobs, settings }) => (jobs ? createBackupJobs({ ...jobs, settings, url: databaseUrlOf }) : undefined),
  metrics: ({ orm }) => [
    new client.Gauge({
      name: 'nw_backup_newest_age_seconds',
      help: 'Seconds since the newest good backup finished (absent: none yet)',
      registers: [],
      async collect() {
        const at = await newestBackupAt(orm.em.fork()).catch(() => null);
        this.reset();
        if (at) this.set((Date.now() - at.getTime()) / 1000);
      },
    }),
  ],
});
