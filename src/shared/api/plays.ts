/** Proof of play (issue 34): how long each stream was on which screen, per day, and how much of it played. */
import { z } from 'zod';
import { endpoint } from './contract.ts';
import { ROUTES } from './routes.ts';
import { Id } from './common.ts';
import { MAX_SCENE_STREAMS } from '../constants.ts';
import { PLAY_GROUPS, PLAYS_PER_REPORT, type PlayRecord as PlayRecordFields } from '../plays.ts';

// What screens send (the socket contract, src/shared/events.ts): declared here, beside the
// answers, so the screens' own code (src/shared/plays.ts, play-log.ts) stays free of zod.


/** One record as a screen sends it (times in ms since the epoch, on the server's clock as the screen estimates it). */
export const PlayRecord = z.strictObject({
  stream_id: Id,
  position: z.number().int().min(1).max(MAX_SCENE_STREAMS),
  scene_id: Id.nullable(),
  from: z.number().int().nonnegative(),
  to: z.number().int().nonnegative(),
  playing_ms: z.number().int().nonnegative(),
}) satisfies z.ZodType<PlayRecordFields>;
export type PlayRecord = z.output<typeof PlayRecord>;

export const PlayReport = z.strictObject({ records: z.array(PlayRecord).min(1).max(PLAYS_PER_REPORT) });
export type PlayReport = z.output<typeof PlayReport>;

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
  refused: z.number().int().describe('Records screens sent that were refused or clipped since this server started (see the metrics)'),
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
