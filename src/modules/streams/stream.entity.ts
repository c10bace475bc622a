import { defineEntity, p } from '@mikro-orm/core';
import { CATEGORIES, QUALITIES } from '../../shared/constants.ts';
import { HEALTH_STATES } from '../../shared/quality/health.ts';
import type { RequestHeaders } from '../../shared/streams/request-headers.ts';
import type { PlaybackHints } from '../../shared/streams/playback.ts';
import type { ActivityPoint, LoopEvidence } from '../../shared/quality/activity.ts';

export const StreamSchema = defineEntity({
  name: 'Stream',
  tableName: 'streams',
  properties: {
    id: p.integer().primary(),
    name: p.text(),
    url: p.text(),
    /** Identity for duplicate detection (see normalizeStreamUrl); unique in the database. */
    normalizedUrl: p.text().unique('streams_normalized_url_unique'),
    /** A second address of the same camera, tried when the first one fails. */
    fallbackUrl: p.text().nullable(),
    description: p.text().nullable(),
    category: p.enum(CATEGORIES).default('nature'),
    quality: p.enum(QUALITIES).default('hd'),
    active: p.boolean().default(true),
    qualityScore: p.double().runtimeType('number').$type<number>().nullable(),
    qualityAssessedAt: p.datetime().nullable(),
    qualityConfidence: p.double().runtimeType('number').$type<number>().nullable(),
    locationName: p.text().nullable(),
    latitude: p.double().runtimeType('number').$type<number>().nullable(),
    longitude: p.double().runtimeType('number').$type<number>().nullable(),
    timezone: p.text().nullable(),
    /** The two halves behind qualityScore: the automatic analysis, and the reliability-weighted human score (0–5). */
    autoScore: p.double().runtimeType('number').$type<number>().nullable(),
    autoConfidence: p.double().runtimeType('number').$type<number>().nullable(),
    humanScore: p.double().runtimeType('number').$type<number>().nullable(),
    humanConfidence: p.double().runtimeType('number').$type<number>().nullable(),
    humanCount: p.integer().default(0),
    /** From its analyses and its players' reports (src/shared/quality/health.ts). */
    health: p.enum(HEALTH_STATES).default('unknown'),
    healthChangedAt: p.datetime().nullable(),
    /** What the check that set its health found (a degraded stream says why: frozen, black…). */
    healthFaults: p.json<string[]>().defaultRaw(`'[]'::jsonb`).onCreate(() => []),
    /** Failed checks in a row (offline after two). */
    failedChecks: p.integer().default(0),
    /** When discovery last found this stream at its source. */
    lastSeenAt: p.datetime().nullable(),
    /** Headers a player must send (a playlist's #EXTVLCOPT): the analysis sends them; a browser cannot. */
    requestHeaders: p.json<RequestHeaders>().nullable(),
    /** Why it is inactive, when the system made it so (it needs headers a browser cannot send). */
    inactiveReason: p.text().nullable(),
    /** How screens start and sync it, from its last readable analysis (src/shared/streams/playback.ts). */
    playback: p.json<PlaybackHints>().nullable(),
    /** Its last analysis's activity (local motion above the noise, grey levels; null: unknown, e.g. an embedded player). */
    activity: p.float().$type<number>().nullable(),
    /** That activity against the camera's normal at that hour (1 = usual), and what the normal was taken from. */
    activityRatio: p.float().$type<number>().nullable(),
    activityBasis: p.enum(['own', 'category'] as const).nullable(),
    /** The last analyses' activity, oldest first (the console's sparkline). */
    activityRecent: p.json<ActivityPoint[]>().defaultRaw(`'[]'::jsonb`).onCreate(() => []),
    /** The evidence that it replays a recording (null: none found); off pool walls unless `recordingOk`. */
    looped: p.json<LoopEvidence>().nullable(),
    /** An admin says replaying a recording is fine for this stream. */
    recordingOk: p.boolean().default(false),
    /** The discovery source that added it (null: added by hand or from a submission). */
    discoverySourceId: p.integer().nullable(),
    /** When its still was taken (stream_stills; the picture's bytes are never read with the stream). */
    stillTakenAt: p.formula<Date | null>((cols) => `(select ss.taken_at from stream_stills ss where ss.stream_id = ${cols.id})`).type('datetime').nullable(),
    createdAt: p.datetime().defaultRaw('now()').onCreate(() => new Date()),
    updatedAt: p.datetime().defaultRaw('now()').onCreate(() => new Date()).onUpdate(() => new Date()),
  },
  indexes: [{ name: 'streams_active_created_idx', properties: ['active', 'createdAt'] }],
  checks: [
    { name: 'streams_name_check', expression: "btrim(name) <> ''" },
    { name: 'streams_quality_score_check', expression: 'quality_score between 0 and 100' },
    { name: 'streams_quality_confidence_check', expression: 'quality_confidence between 0 and 1' },
    { name: 'streams_latitude_check', expression: 'latitude between -90 and 90' },
    { name: 'streams_longitude_check', expression: 'longitude between -180 and 180' },
    { name: 'streams_url_check', expression: "url ~* '^https?://'" },
  ],
});

export class Stream extends StreamSchema.class {}
StreamSchema.setClass(Stream);
