/**
 * The backup schedule (BACKUP_CRON) on the job queue: pg-boss fires a cron schedule once per tick
 * across the cluster, and the `singleton` queue runs one backup at a time — on whichever node
 * that works jobs picks it up (its BACKUP_DIR holds the file: give nodes a shared one).
 */
import type { Orm } from '../../db.ts';
import type { JobContext } from '../module.ts';
import { BackupBusy, takeBackup, type BackupSettings } from './backups.service.ts';

export const BACKUP_QUEUE = 'backup';

export function createBackupJobs(deps: JobContext & { settings: BackupSettings; url: (orm: Orm) => string }) {
  const { queue, orm, logger, settings } = deps;
  return {
    async start() {
      await queue.createQueue(BACKUP_QUEUE, { policy: 'singleton', retryLimit: 0, expireInSeconds: 6 * 3600 });
      if (settings.cron) await queue.schedule(BACKUP_QUEUE, settings.cron, {}, { tz: settings.timeZone });
      else await queue.unschedule(BACKUP_QUEUE);
      if (!deps.work) return;
      await queue.work(BACKUP_QUEUE, { pollingIntervalSeconds: 30 }, async () => {
        try {
          await takeBackup({ em: orm.em.fork(), url: deps.url(orm), settings, trigger: 'schedule', logger });
        } catch (error) {
          // Another backup running now (the console's, a command's) stands for this one.
          if (error instanceof BackupBusy) logger.info(error.message);
          else throw error;
        }
      });
    },
    stop: () => undefined,
  };
}
