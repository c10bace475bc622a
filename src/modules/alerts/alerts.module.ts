/**
 * Alerts: rules over what screens, streams, discovery, analyses and the database do; incidents
 * stepped by one node at a time; messages to webhooks, Slack and e-mail relays, retried.
 */
import client from 'prom-client';
import { number, wholeNumber } from '../../env.ts';
import { defineModule } from '../module.ts';
import { backupsModule } from '../backups/backups.module.ts';
import { screensModule } from '../screens/screens.module.ts';
import { alertPushes } from './alerts.changes.ts';
import { AlertDelivery, AlertDestination, AlertIncident, AlertRule } from './alerts.entity.ts';
import { createAlertJobs, DEFAULT_ALERT_SETTINGS, type AlertJobs, type AlertSettings } from './alerts.jobs.ts';
import { openIncidents } from './alerts.presenter.ts';
import { alertsRouter } from './alerts.routes.ts';

const d = DEFAULT_ALERT_SETTINGS;

export const alertsModule = defineModule<AlertSettings, AlertJobs | undefined>({
  name: 'alerts',
  entities: [AlertRule, AlertDestination, AlertIncident, AlertDelivery],
  settings: {
    env: {
      ALERT_CHECK_SECONDS: number(0.2, 300, d.checkSeconds),
      ALERT_DELIVERY_ATTEMPTS: wholeNumber(1, 20, d.attempts),
      ALERT_RETRY_SECONDS: number(0.5, 3600, d.retryDelaySeconds),
    },
    read: (e) => ({ ...d, checkSeconds: e.ALERT_CHECK_SECONDS as number, attempts: e.ALERT_DELIVERY_ATTEMPTS as number, retryDelaySeconds: e.ALERT_RETRY_SECONDS as number }),
  },
  setup: ({ jobs, settings, screens, availability, now, use }) =>
    jobs
      ? createAlertJobs({
          ...jobs,
          settings,
          listScreens: () => screens.list({ includeOffline: true }),
          onScreens: use(screensModule).streamsOnScreens,
          backupStaleness: use(backupsModule).staleness,
          availability,
          now,
        })
      : undefined,
  routes: ({ commands, fetcher, now }, jobs) => [alertsRouter({ commands, fetcher, queueDelivery: jobs?.queueDelivery, now })],
  pushes: ({ orm }) => alertPushes(orm),
  jobs: (_context, jobs) => jobs,
  metrics: ({ orm }) => [
    new client.Gauge({
      name: 'nw_incidents_open',
      help: 'Alert incidents told and not yet recovered, by rule kind, across the cluster',
      labelNames: ['kind'] as const,
      registers: [],
      async collect() {
        const open = await openIncidents(orm.em.fork()).catch(() => []);
        this.reset();
        for (const { labels, value } of open) this.set(labels, value);
      },
    }),
  ],
});
