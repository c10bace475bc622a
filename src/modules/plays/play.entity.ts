import { defineEntity, p } from '@mikro-orm/core';

/**
 * Proof of play is kept as totals (issue 42; migration Migration20261127220000_play_rollups says
 * why and how): a screen's reports, after the rules of src/shared/plays.ts, add to its quarter
 * hours (`PlayQuarter`) and its days in the report zone (`PlayDay`); `PlayPosition` keeps where
 * its kept time ends. Kept PLAYS_RETENTION_DAYS.
 */

/** A screen proof of play counted for: a number for its totals, its newest name and kind. */
export const PlayScreenSchema = defineEntity({
  name: 'PlayScreen',
  tableName: 'play_screens',
  properties: {
    id: p.integer().primary(),
    /** The screen's lasting key (src/shared/plays.ts `playScreen`). */
    device: p.text().unique(),
    name: p.text().nullable(),
    kind: p.text(),
    /** The end of the newest time kept for it. */
    seenAt: p.datetime(),
  },
});
export class PlayScreen extends PlayScreenSchema.class {}
PlayScreenSchema.setClass(PlayScreen);

/** Where a screen's kept time at a position ends: a record is counted from there on only (no second twice). */
export const PlayPositionSchema = defineEntity({
  name: 'PlayPosition',
  tableName: 'play_positions',
  properties: {
    screen: p.integer().primary(),
    position: p.smallint().primary(),
    keptUntil: p.datetime(),
  },
});
export class PlayPosition extends PlayPositionSchema.class {}
PlayPositionSchema.setClass(PlayPosition);

/** Milliseconds a screen showed a stream at a position, in the quarter hour its records started (partitioned by UTC day). */
export const PlayQuarterSchema = defineEntity({
  name: 'PlayQuarter',
  tableName: 'play_quarters',
  properties: {
    quarter: p.datetime().primary(),
    screen: p.integer().primary(),
    position: p.smallint().primary(),
    stream: p.integer().primary(),
    ms: p.integer(),
    playing: p.integer(),
  },
});
export class PlayQuarter extends PlayQuarterSchema.class {}
PlayQuarterSchema.setClass(PlayQuarter);

/** The quarters summed per day in `PlayDayZone`'s zone, screen and stream (with the stream's newest name that day): what the console reads. */
export const PlayDaySchema = defineEntity({
  name: 'PlayDay',
  tableName: 'play_days',
  properties: {
    day: p.string().columnType('date').primary(),
    screen: p.integer().primary(),
    stream: p.integer().primary(),
    streamName: p.text(),
    ms: p.bigint(),
    playing: p.bigint(),
  },
});
export class PlayDay extends PlayDaySchema.class {}
PlayDaySchema.setClass(PlayDay);

/** The one zone `PlayDay`'s days are in (one row). */
export const PlayDayZoneSchema = defineEntity({
  name: 'PlayDayZone',
  tableName: 'play_day_zone',
  properties: {
    zone: p.text().primary(),
  },
});
export class PlayDayZone extends PlayDayZoneSchema.class {}
PlayDayZoneSchema.setClass(PlayDayZone);

/**
 * What screens sent that was not counted, per screen and reason (src/shared/plays.ts: clipped,
 * or why refused): stored, so the console's figure survives restarts and adds up across nodes;
 * forgotten with the records, PLAYS_RETENTION_DAYS after a reason last happened.
 */
export const PlayRefusalSchema = defineEntity({
  name: 'PlayRefusal',
  tableName: 'play_refusals',
  properties: {
    device: p.text().primary(),
    reason: p.text().primary(),
    screenName: p.text().nullable(),
    count: p.integer(),
    lastAt: p.datetime(),
  },
});

export class PlayRefusal extends PlayRefusalSchema.class {}
PlayRefusalSchema.setClass(PlayRefusal);

/**
 * What each screen was told to show (issue 41), from the programme's assignment feed: from
 * `fromAt` until its next row, stream ids by position (`streams[position - 1]`). A screen's
 * records count only for what it was assigned (src/shared/plays.ts); kept PLAYS_RETENTION_DAYS
 * after the next row took over (a screen's newest row stays however old).
 */
export const PlayAssignmentSchema = defineEntity({
  name: 'PlayAssignment',
  tableName: 'play_assignments',
  properties: {
    /** The screen proof of play counts (src/shared/plays.ts `playScreen`'s key). */
    screen: p.text().primary(),
    fromAt: p.datetime().primary(),
    sceneId: p.integer().nullable(),
    streams: p.array<number | null>((i) => (i === 'NULL' ? null : Number(i))).columnType('int[]'),
  },
});

export class PlayAssignment extends PlayAssignmentSchema.class {}
PlayAssignmentSchema.setClass(PlayAssignment);
