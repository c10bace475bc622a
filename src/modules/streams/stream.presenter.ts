import type { StreamDto } from '../../shared/api/index.ts';
import type { Category, Quality } from '../../shared/constants.ts';
import type { HealthState } from '../../shared/quality/health.ts';
import { needsRequestHeaders, type RequestHeaders } from '../../shared/streams/request-headers.ts';
import type { PlaybackHints } from '../../shared/streams/playback.ts';
import { QUALITY_FAULTS, type QualityFault } from '../../shared/quality/score.ts';
import type { ActivityBasis, ActivityPoint, LoopEvidence } from '../../shared/quality/activity.ts';

/** A stream as an entity or a raw row (same property names; raw dates arrive as text). */
export interface StreamFields {
  id: number;
  name: string;
  url: string;
  fallbackUrl?: string | null;
  description?: string | null;
  category: Category;
  quality: Quality;
  active: boolean;
  createdAt: Date | string;
  updatedAt: Date | string;
  qualityScore?: number | null;
  qualityAssessedAt?: Date | string | null;
  qualityConfidence?: number | null;
  locationName?: string | null;
  latitude?: number | null;
  longitude?: number | null;
  timezone?: string | null;
  health?: HealthState;
  healthChangedAt?: Date | string | null;
  healthFaults?: string[] | null;
  autoScore?: number | null;
  humanScore?: number | null;
  humanConfidence?: number | null;
  humanCount?: number;
  requestHeaders?: RequestHeaders | null;
  inactiveReason?: string | null;
  playback?: PlaybackHints | null;
  /** When its still was taken (null: none yet). */
  stillTakenAt?: Date | string | null;
  activity?: number | null;
  activityRatio?: number | null;
  activityBasis?: ActivityBasis | null;
  activityRecent?: ActivityPoint[] | null;
  looped?: LoopEvidence | null;
  recordingOk?: boolean;
}

/** The `streams` columns a StreamFields row is read from, for plain-SQL reads (scene resolution, pages). */
export function streamColumns(alias: string): string {
  const c = (column: string, as?: string) => `${alias}.${column}${as ? ` as "${as}"` : ''}`;
  return [
    c('id'), c('name'), c('url'), c('fallback_url', 'fallbackUrl'), c('description'), c('category'), c('quality'), c('active'),
    c('created_at', 'createdAt'), c('updated_at', 'updatedAt'), c('quality_score', 'qualityScore'),
    c('quality_assessed_at', 'qualityAssessedAt'), c('quality_confidence', 'qualityConfidence'), c('location_name', 'locationName'),
    c('latitude'), c('longitude'), c('timezone'), c('health'), c('auto_score', 'autoScore'), c('human_score', 'humanScore'),
    c('human_confidence', 'humanConfidence'), c('human_count', 'humanCount'), c('request_headers', 'requestHeaders'),
    c('inactive_reason', 'inactiveReason'), c('playback'), c('health_changed_at', 'healthChangedAt'), c('health_faults', 'healthFaults'),
    c('activity'), c('activity_ratio', 'activityRatio'), c('activity_basis', 'activityBasis'), c('activity_recent', 'activityRecent'), c('looped'), c('recording_ok', 'recordingOk'),
    // The still's time only (a primary-key lookup), never its bytes.
    `(select ss.taken_at from stream_stills ss where ss.stream_id = ${alias}.id) as "stillTakenAt"`,
  ].join(', ');
}

/** ISO 8601 in UTC with milliseconds, from a Date or PostgreSQL's "2026-11-22 15:57:58.783+00". */
export function iso(value: Date | string): string {
  if (value instanceof Date) return value.toISOString();
  return new Date(value.replace(' ', 'T').replace(/([+-]\d\d)$/, '$1:00')).toISOString();
}

/** A still's version: its time in ms — in its URL (`?v=`) and its ETag, so a new picture busts caches. */
export const stillVersion = (takenAt: Date | string): number => new Date(iso(takenAt)).getTime();

/** Where a stream's still is served from our origin, versioned; null when it has none. */
export const stillUrl = (id: number, takenAt: Date | string | null | undefined): string | null => (takenAt ? `/api/streams/${id}/still?v=${stillVersion(takenAt)}` : null);

export function presentStream(s: StreamFields): StreamDto {
  return {
    id: s.id,
    name: s.name,
    url: s.url,
    fallback_url: s.fallbackUrl ?? null,
    description: s.description ?? null,
    category: s.category,
    quality: s.quality,
    active: s.active,
    created_at: iso(s.createdAt),
    updated_at: iso(s.updatedAt),
    quality_score: s.qualityScore ?? null,
    quality_assessed_at: s.qualityAssessedAt ? iso(s.qualityAssessedAt) : null,
    quality_confidence: s.qualityConfidence ?? null,
    location_name: s.locationName ?? null,
    latitude: s.latitude ?? null,
    longitude: s.longitude ?? null,
    timezone: s.timezone ?? null,
    health: s.health ?? 'unknown',
    health_since: s.healthChangedAt ? iso(s.healthChangedAt) : null,
    health_faults: (s.healthFaults ?? []).filter((f): f is QualityFault => (QUALITY_FAULTS as readonly string[]).includes(f)),
    auto_score: s.autoScore ?? null,
    human_score: s.humanScore ?? null,
    human_confidence: s.humanConfidence ?? null,
    human_count: s.humanCount ?? 0,
    request_headers: needsRequestHeaders(s.requestHeaders) ? { user_agent: s.requestHeaders!.user_agent ?? null, referrer: s.requestHeaders!.referrer ?? null } : null,
    inactive_reason: s.inactiveReason ?? null,
    playback: s.playback ? { sync_latency_ms: s.playback.sync_latency_ms ?? null, start_bandwidth: s.playback.start_bandwidth ?? null, camera_skew_ms: s.playback.camera_skew_ms ?? null } : null,
    still_url: stillUrl(s.id, s.stillTakenAt),
    activity: s.activity ?? null,
    activity_ratio: s.activityRatio ?? null,
    activity_basis: s.activityBasis ?? null,
    activity_recent: s.activityRecent ?? [],
    looped: s.looped ?? null,
    recording_ok: s.recordingOk ?? false,
  };
}
