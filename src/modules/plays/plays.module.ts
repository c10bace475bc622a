/**
 * Proof of play (issue 34): what every wall and kiosk with a device id showed, when, and whether
 * its picture was playing — kept from their reports, and only what the programme assigned them
 * (issue 41: play-assignments.ts keeps each screen's history; src/shared/plays.ts says what is believed),
 * as totals (issue 42: play-rollups.ts) for PLAYS_RETENTION_DAYS, per stream, screen and day in PLAYS_TIME_ZONE.
 */
import { z } from 'zod';
import { wholeNumber } from '../../env.ts';
import { PLAYS_RETENTION_DAYS } from '../../shared/plays.ts';
import { isValidTimezone } from '../../shared/streams/location.ts';
import { defineModule } from '../module.ts';
import { programmeModule } from '../programme/programme.module.ts';
import { PlayAssignment, PlayDay, PlayDayZone, PlayPosition, PlayQuarter, PlayRefusal, PlayScreen } from './play.entity.ts';
import { ensurePartitions, keepDaysIn } from './play-rollups.ts';
import { createAssignmentLog, type AssignmentLog } from './play-assignments.ts';
import { playRecordsTotal } from './plays.metrics.ts';
import { playsReport } from './plays.reports.ts';
import { playsRouter } from './plays.routes.ts';
import { forgetPlays, type PlaySettings } from './plays.service.ts';

/** How often totals past the retention are forgotten, and the next days' partitions made. */
const FORGET_EVERY_MS = 60 * 60_000;
/** Partitions are made this far ahead (a report never waits for one, whatever the hour). */
const AHEAD_MS = 2 * 86_400_000;

/** The process's own zone (TZ), UTC where it has none. */
const processZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

export interface PlaysApi {
  /** Each screen's assignment history, kept from the programme's feed. */
  assignments: AssignmentLog;
  flipLeadMs: number;
}

export const playsModule = defineModule<PlaySettings, PlaysApi>({
  name: 'plays',
  entities: [PlayScreen, PlayPosition, PlayQuarter, PlayDay, PlayDayZone, PlayRefusal, PlayAssignment],
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
    const forget = async () => {
      try {
        await ensurePartitions(orm.em.fork(), now(), now() + AHEAD_MS, now() + AHEAD_MS);
        const { dropped, busy } = await forgetPlays(orm.em.fork(), settings.retentionDays, now());
        if (dropped.length > 0) logger.info({ days: dropped }, 'proof of play: forgot days past the retention');
        if (busy.length > 0) logger.warn({ days: busy }, 'proof of play: days past the retention were in use; forgetting them next time');
      } catch (err) {
        logger.warn({ err }, 'proof of play: could not forget old totals');
      }
    };
    return {
      start: async () => {
        try {
          if (await keepDaysIn(orm.em.fork(), settings.timeZone)) logger.info({ timeZone: settings.timeZone }, 'proof of play: days summed again in the configured time zone');
        } catch (err) {
          logger.warn({ err }, 'proof of play: could not sum the days in the configured time zone; they stay in the one before');
        }
        await forget();
        timer = setInterval(() => void forget(), FORGET_EVERY_MS);
        timer.unref();
      },
      stop: () => clearInterval(timer),
    };
  },
});
