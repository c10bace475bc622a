/** Proof of play (issue 34): how long each stream was on which screen, per day, and how much of it played. */
import { z } from 'zod';
import { endpoint } from './contract.ts';
import { ROUTES } from './routes.ts';
import { PLAY_GROUPS, PLAY_REFUSALS, PLAYS_PER_REPORT, type PlayVerdict } from '../plays.ts';
import { IsoDate } from './common.ts';
import { PlayRecord } from './play-record.ts';

export { PlayRecord } from './play-record.ts';

/** What a wall or kiosk with a device id sends over `screen:plays`: records it showed, oldest first. */
export const PlayReport = z.strictObject({ records: z.array(PlayRecord).min(1).max(PLAYS_PER_REPORT) });
export type PlayReport = z.output<typeof PlayReport>;

/** The answer to a proof-of-play report: how many records were kept, clipped or refused. */
export interface PlaysAnswer {
  kept: number;
  clipped: number;
  refused: number;
  verdicts: PlayVerdict[];
}

/** Proof of play: answered once the records are kept, so the screen drops them then (and sends them again otherwise). */
declare module '../reports.ts' {
  interface ScreenReports {
    plays: { report: PlayReport; answer: PlaysAnswer };
  }
}

/** A calendar day (in the report's time zone). */
const Day = z.iso.date({ error: 'Expected a day as YYYY-MM-DD' });

/** A range that ends before it starts is empty (no rows), not an error. */
export const PlaysQuery = z.object({
  group: z.enum(PLAY_GROUPS).default('stream').describe('What each row totals: a stream, a screen (device) or a day'),
  from: Day.optional().describe('First day, inclusive (default: 6 days before `to`)'),
  to: Day.optional().describe('Last day, inclusive (default: today)'),
});
export type PlaysQuery = z.output<typeof PlaysQuery>;

export const PlayTotalDto = z.strictObject({
  key: z.string().describe('The stream id, the screen\'s device id, or the day (YYYY-MM-DD)'),
  label: z.string().describe('The stream\'s name, the screen\'s name, or the day'),
  seconds: z.number().describe('Seconds on screen (a stream on two screens at once counts twice)'),
  playing_seconds: z.number().describe('Of those, seconds the picture was playing'),
  playing_share: z.number().min(0).max(1).nullable().describe('playing_seconds / seconds (null when nothing was on screen)'),
  screens: z.number().int().describe('Screens that showed it'),
  streams: z.number().int().describe('Streams it showed'),
});
export type PlayTotalDto = z.output<typeof PlayTotalDto>;

export const PlaysDto = z.strictObject({
  group: z.enum(PLAY_GROUPS),
  from: Day,
  to: Day,
  time_zone: z.string().describe('The time zone days are counted in (PLAYS_TIME_ZONE)'),
  retention_days: z.number().int(),
  rows: z.array(PlayTotalDto),
  refused: z.number().int().describe('Records screens sent that were refused or clipped, within the retention (the sum of `refusals`)'),
  refusals: z
    .array(
      z.strictObject({
        key: z.string().describe("The screen's device id (a kiosk's with its position)"),
        label: z.string().describe("The screen's name"),
        reason: z.enum(PLAY_REFUSALS).describe('clipped (kept, shortened), or why it was refused (src/shared/plays.ts)'),
        count: z.number().int(),
        last_at: IsoDate,
      }),
    )
    .describe('Per screen and reason, newest first (at most 200): what was not counted as sent'),
});
export type PlaysDto = z.output<typeof PlaysDto>;

export const playsEndpoints = {
  totals: endpoint({
    ...ROUTES['plays.totals'],
    summary: 'Proof of play: seconds on screen per stream, per screen or per day, with the share the picture was playing',
    access: 'viewer',
    query: PlaysQuery,
    responses: { 200: PlaysDto },
  }),
  export: endpoint({
    ...ROUTES['plays.export'],
    summary: 'Proof of play as CSV: one row per day, screen and stream (same query as GET /api/plays, `group` ignored)',
    access: 'viewer',
    query: PlaysQuery,
    responses: { 200: z.string().describe('text/csv: day, screen device, screen name, stream id, stream name, seconds, playing seconds') },
    produces: 'text/csv',
  }),
};
