/**
 * Alerts' background work, put together: every ALERT_CHECK_SECONDS each node that works jobs
 * steps the incidents against what the rules watch (alerts.stepping.ts, alerts.rules.ts) and
 * queues the messages that filed; the delivery worker sends them (alerts.delivery.ts). While the
 * database is away, the check only watches the outage; when it is back, the outage is recorded
 * before the next step.
 */
import type { DatabaseAvailability } from '../../database/availability.ts';
import type { Orm } from '../../db.ts';
import type { CommandDeps } from '../../domain/command.ts';
import type { SafeFetcher } from '../../http/safe-fetch.ts';
import type { JobQueue } from '../../jobs/queue.ts';
import type { Logger } from '../../logger.ts';
import type { AlertDelivery } from './alerts.entity.ts';
import { createDeliveries, type DeliverySettings } from './alerts.delivery.ts';
import type { WatchSources } from './alerts.rules.ts';
import { stepIncidents, type StepperDeps } from './alerts.stepping.ts';

export { DELIVERY_QUEUE } from './alerts.delivery.ts';

export interface AlertSettings extends DeliverySettings {
  /** ALERT_CHECK_SECONDS: how often the conditions are looked at. */
  checkSeconds: number;
}

export const DEFAULT_ALERT_SETTINGS: AlertSettings = { checkSeconds: 5, attempts: 6, retryDelaySeconds: 10, retryDelayMaxSeconds: 600 };

export interface AlertJobsDeps extends Omit<WatchSources, 'now'> {
  orm: Orm;
  queue: JobQueue;
  commands: CommandDeps;
  fetcher: SafeFetcher;
  logger: Logger;
  settings: AlertSettings;
  /** Whether this node works jobs (JOBS_ENABLED): the watch and the delivery worker run only then. */
  work: boolean;
  availability: DatabaseAvailability;
  /** The clock every rule period is measured on (tests move it); Date.now by default. */
  now?: () => number;
}

export interface AlertJobs {
  start(): Promise<void>;
  stop(): void;
  /** One look at the conditions now (tests step it; the timer calls it). */
  check(): Promise<void>;
  /** Queues the job of a delivery filed by a command (a test message). */
  queueDelivery(delivery: Pick<AlertDelivery, 'id' | 'jobId'>): Promise<void>;
}

export function createAlertJobs(deps: AlertJobsDeps): AlertJobs {
  const { orm, commands, logger, settings, availability } = deps;
  const now = deps.now ?? Date.now;
  const deliveries = createDeliveries({ ...deps, now });
  const stepper: StepperDeps = { orm, commands, sources: { listScreens: deps.listScreens, onScreens: deps.onScreens, backupStaleness: deps.backupStaleness, now }, remember: deliveries.remember };
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;

  async function check(): Promise<void> {
    if (!availability.available) {
      deliveries.watchOutage();
      return;
    }
    await deliveries.recordOutage();
    await deliveries.queueJobs(await stepIncidents(stepper));
    await deliveries.requeueStranded();
  }

  function schedule(): void {
    if (stopped) return;
    timer = setTimeout(() => {
      check()
        .catch((err: unknown) => {
          // A check cut short by the node's own shutdown (the ORM closed under it) is no failure.
          if (stopped) return;
          if (!availability.noteFailure(err)) logger.warn({ err }, 'alert check failed');
        })
        .finally(schedule);
    }, settings.checkSeconds * 1000);
    timer.unref();
  }

  return {
    async start() {
      await deliveries.createQueue();
      if (!deps.work) return;
      await deliveries.work();
      schedule();
    },
    stop() {
      stopped = true;
      deliveries.stop();
      clearTimeout(timer);
    },
    check,
    queueDelivery: (delivery) => deliveries.queueJobs([delivery]),
  };
}
