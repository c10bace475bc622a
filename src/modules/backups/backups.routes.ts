import Router from '@koa/router';
import type { AppState } from '../../http/context.ts';
import { HttpError } from '../../http/errors.ts';
import { mount } from '../../http/route.ts';
import { backupsEndpoints as api } from '../../shared/api/backups.ts';
import { BackupBusy, backupStatus, takeBackup, type BackupSettings } from './backups.service.ts';
import type { Logger } from '../../logger.ts';

export function backupsRouter(deps: { settings: BackupSettings; url: string; logger: Logger; now: () => number }): Router<AppState> {
  const router = new Router<AppState>();
  mount(router, api.list)(async (ctx) => backupStatus(ctx.state.em, deps.settings, new Date(deps.now())));
  mount(router, api.create)(async (ctx) => {
    try {
      return await takeBackup({ em: ctx.state.em, url: deps.url, settings: deps.settings, trigger: 'console', logger: deps.logger });
    } catch (error) {
      if (error instanceof BackupBusy) throw new HttpError(409, error.message);
      throw error;
    }
  });
  return router;
}
