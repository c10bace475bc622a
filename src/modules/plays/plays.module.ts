/**
 * Proof of play (issue 34): what every wall and kiosk with a device id showed, when, and whether
 * its picture was playing — kept from their reports, and only what the programme assigned them
 * (issue 41: play-assignments.ts keeps each screen's history; src/shared/plays.ts says what is believed),
 * for PLAYS_RETENTION_DAYS, and totalled per stream, screen and day in PLAYS_TIME_ZONE.
 */
import { z } from 'zod';
import { wholeNumber } from '../../env.ts';
import { PLAYS_RETENTION_DAYS } from '../../shared/plays.ts';
import { isValidTimezone } from '../../shared/streams/location.ts';
import { defineModule } from '../module.ts';
import { programmeModule } from '../programme/programme.module.ts';
import { Play, PlayAssignment, PlayRefusal } from './play.entity.ts';
import { createAssignmentLog, type AssignmentLog } from './play-assignments.ts';
import { playRecordsTotal } from './plays.metrics.ts';
import { playsReport } from './plays.reports.ts';
import { playsRouter } from './plays.routes.ts';
import { forgetPlays, type PlaySettings } from './plays.service.ts';

/** How often records past the retention are deleted. */
const FORGET_EVERY_MS = 60 * 60_000;

/** The process's own zone (TZ), UTC where it has none. */
const processZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

export interface PlaysApi {
  /** Each screen's assignment history, kept from the programme's feed. */
  assignments: AssignmentLog;
  flipLeadMs: number;
}

export const playsModule = defineModule<PlaySettings, PlaysApi>({
  name: 'plays',
  entities: [Play, PlayRefusal, PlayAssignment],
  settings: {
    env: {
      PLAYS_RETENTION_DAYS: wholeNumber(1, 3650, PLAYS_RETENTION_DAYS),
      PLAYS_TIME_ZONE: z
        .string()
        .trim()
        .optional()
        .refine((v) => !v || (isValidTimezone(v) && !/^[+-]/.test(v)), 'Expected an IANA time zone name, e.g. Europe/Berlin (PostgreSQL reads offsets like +01 the other way round)'),
    },
    read: (e) => ({ retentionDays: e.PLAYS_RETENTION_DAYS as number, timeZone: (e.PLAYS_TIME_ZONE as string | undefined) || processZone() }),
  },
  setup({ orm, logger, use }) {
    const programme = use(programmeModule);
    const assignments = createAssignmentLog({ orm, logger });
    programme.assignments.listen(assignments.note);
    return { assignments, flipLeadMs: programme.flipLeadMs };
  },
  reports: ({ orm, logger, settings, now }, api) => ({ name: 'plays', declares: [playsReport({ orm, logger, settings, now, ...api })] }),
  routes: ({ settings, now }) => [playsRouter({ settings, now })],
  metrics: () => [playRecordsTotal],
  jobs: ({ orm, logger, settings, now }) => {
    let timer: ReturnType<typeof setInterval> | undefined;
    const forget = () =>
      forgetPlays(orm.em.fork(), settings.retentionDays, now()).catch((err: unknown) => logger.warn({ err }, 'proof of play: could not delete old records'));
    return {
      start: async () => {
        await forget();
        timer = setInterval(() => void forget(), FORGET_EVERY_MS);
        timer.unref();
      },
      stop: () => clearInterval(timer),
    };
  },
});
