import { defineEntity, p } from '@mikro-orm/core';

/**
 * What a wall or kiosk showed (proof of play): a stream at a position from one instant to another
 * (never across a minute boundary: screens cut there), and for how much of it the picture was
 * playing. Written by plays.service.ts after the rules of src/shared/plays.ts; kept
 * PLAYS_RETENTION_DAYS. The stream's name is kept with it: proof of play outlives a deleted stream.
 */
export const PlaySchema = defineEntity({
  name: 'Play',
  tableName: 'play_records',
  properties: {
    id: p.bigint().primary(),
    /** The screen's lasting device id. */
    device: p.text(),
    screenName: p.text().nullable(),
    screenKind: p.text(),
    streamId: p.integer().nullable(),
    streamName: p.text(),
    sceneId: p.integer().nullable(),
    position: p.smallint(),
    startedAt: p.datetime(),
    endedAt: p.datetime(),
    playingMs: p.integer(),
    receivedAt: p.datetime().defaultRaw('now()'),
  },
});

export class Play extends PlaySchema.class {}
PlaySchema.setClass(Play);

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
