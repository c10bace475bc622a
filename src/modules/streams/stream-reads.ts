/**
 * What other modules may read of the stream pool — the only way they read it (a read that must
 * join for speed lives in the asking module's `*-queries.ts`; tests/architecture/foreign-reads).
 */
import type { EntityManager } from '../../db.ts';
import type { Category } from '../../shared/constants.ts';
import type { HealthState } from '../../shared/quality/health.ts';
import { Stream } from './stream.entity.ts';

/** One stream, or null (quality analyses it, the seed looks for its own). */
export function streamById(em: EntityManager, id: number): Promise<Stream | null> {
  return em.findOne(Stream, { id });
}

/** The stream with this normalized URL, or null. */
export function streamByUrl(em: EntityManager, normalizedUrl: string): Promise<Stream | null> {
  return em.findOne(Stream, { normalizedUrl });
}

/** Which of these normalized URLs the pool already has. */
export async function knownUrls(em: EntityManager, normalizedUrls: readonly string[]): Promise<Set<string>> {
  if (normalizedUrls.length === 0) return new Set();
  const rows = await em.find(Stream, { normalizedUrl: { $in: [...normalizedUrls] } }, { fields: ['normalizedUrl'] });
  return new Set(rows.map((s) => s.normalizedUrl));
}

/** The ids among these that name no stream, in the order asked. */
export async function missingStreams(em: EntityManager, ids: readonly number[]): Promise<number[]> {
  if (ids.length === 0) return [];
  const found = new Set((await em.find(Stream, { id: { $in: [...ids] } }, { fields: ['id'] })).map((s) => s.id));
  return ids.filter((id) => !found.has(id));
}

/** The names of the streams among these ids that exist (proof of play keeps a stream's name with its records). */
export async function streamNames(em: EntityManager, ids: readonly number[]): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  return new Map((await em.find(Stream, { id: { $in: [...new Set(ids)] } }, { fields: ['id', 'name'] })).map((s) => [s.id, s.name]));
}

/** Active streams, oldest first: id and name (a whole re-analysis). */
export async function activeStreams(em: EntityManager): Promise<{ id: number; name: string }[]> {
  return (await em.find(Stream, { active: true }, { fields: ['id', 'name'], orderBy: { id: 'asc' } })).map((s) => ({ id: s.id, name: s.name }));
}

/** Active streams never assessed, or last assessed before `due` (the periodic sweep). */
export async function streamsAssessedBefore(em: EntityManager, due: Date): Promise<number[]> {
  const rows = await em.find(Stream, { active: true, $or: [{ qualityAssessedAt: null }, { qualityAssessedAt: { $lt: due } }] }, { fields: ['id'] });
  return rows.map((s) => s.id);
}

/** Active offline streams, with how often they failed and when they were last checked (the re-check). */
export async function offlineStreams(em: EntityManager): Promise<{ id: number; failedChecks: number; lastCheckedAt: Date | null }[]> {
  const rows = await em.find(Stream, { active: true, health: 'offline' }, { fields: ['id', 'failedChecks', 'qualityAssessedAt'] });
  return rows.map((s) => ({ id: s.id, failedChecks: s.failedChecks, lastCheckedAt: s.qualityAssessedAt ?? null }));
}

export interface UnhealthyStream {
  id: number;
  name: string;
  health: HealthState;
  healthChangedAt: Date | null;
  healthFaults: string[];
}

/** Of these streams, the offline and degraded ones (alerts watch the ones on screens). */
export async function unhealthyStreams(em: EntityManager, ids: readonly number[]): Promise<UnhealthyStream[]> {
  if (ids.length === 0) return [];
  const rows = await em.find(Stream, { id: { $in: [...ids] }, health: { $in: ['offline', 'degraded'] } }, { fields: ['id', 'name', 'health', 'healthChangedAt', 'healthFaults'] });
  return rows.map((s) => ({ id: s.id, name: s.name, health: s.health, healthChangedAt: s.healthChangedAt ?? null, healthFaults: s.healthFaults ?? [] }));
}

/** What the ranking needs of a stream (src/shared/scenes/ranking.ts), in its field names. */
export interface RankingFields {
  id: number;
  name: string;
  active: boolean;
  health: HealthState;
  quality_score: number | null;
  activity_ratio: number | null;
  activity_basis: 'own' | 'category' | null;
  looped: unknown;
  recording_ok: boolean;
  latitude: number | null;
  longitude: number | null;
}

/**
 * The ranking's candidates: the best by quality, and every one whose activity stands out now
 * (twice its normal or more), whatever its quality — live, not a recording posing as live.
 */
export async function rankingCandidates(em: EntityManager, limit: number): Promise<RankingFields[]> {
  const rows = await em.execute<RankingFields[]>(
    `select id, name, active, health, quality_score, activity_ratio, activity_basis, looped, recording_ok, latitude, longitude from (
        (select * from streams where active and health <> 'offline' and (looped is null or recording_ok) order by quality_score desc nulls last, id limit ?)
        union
        (select * from streams where active and health <> 'offline' and (looped is null or recording_ok) and activity_ratio >= 2 order by activity_ratio desc limit ?)
      ) c`,
    [limit, limit],
  );
  return rows.map((r) => ({ ...r, quality_score: r.quality_score === null ? null : Number(r.quality_score), activity_ratio: r.activity_ratio === null ? null : Number(r.activity_ratio), latitude: r.latitude === null ? null : Number(r.latitude), longitude: r.longitude === null ? null : Number(r.longitude) }));
}

/**
 * The ids of the active streams, or of those among `among` that are active (raters are only ever
 * handed active streams: the rater queue leases among these).
 */
export async function activeStreamIds(em: EntityManager, among?: readonly number[]): Promise<number[]> {
  if (among && among.length === 0) return [];
  const rows = await em.execute<{ id: number }[]>(
    among ? 'select id from streams where active and id = any(?::int[]) order by id' : 'select id from streams where active order by id',
    among ? [`{${[...new Set(among)].join(',')}}`] : [],
    'all',
  );
  return rows.map((r) => r.id);
}

/** What the rater queue's refill weighs of a stream (src/shared/evaluation/queue-rules.ts `refillVerdict`). */
export interface RateableStream {
  id: number;
  createdAt: Date;
  humanCount: number;
  humanScore: number | null;
  humanConfidence: number | null;
  autoScore: number | null;
}

/** The active streams not offline, except these ids, oldest first: what the rater queue may queue. */
export async function streamsToRate(em: EntityManager, except: readonly number[]): Promise<RateableStream[]> {
  const rows = await em.execute<{ id: number; created_at: Date | string; human_count: number | null; human_score: number | null; human_confidence: number | null; auto_score: number | null }[]>(
    `select id, created_at, human_count, human_score, human_confidence, auto_score from streams
      where active and health <> 'offline' and id <> all(?::int[]) order by id`,
    [`{${except.join(',')}}`],
    'all',
  );
  const num = (v: number | null) => (v === null ? null : Number(v));
  return rows.map((r) => ({ id: r.id, createdAt: new Date(r.created_at), humanCount: Number(r.human_count ?? 0), humanScore: num(r.human_score), humanConfidence: num(r.human_confidence), autoScore: num(r.auto_score) }));
}

/** Active streams not offline whose human score is established — confidence at least `minConfidence` from at least `minCount` answers (a new rater's check). */
export async function establishedStreamIds(em: EntityManager, minConfidence: number, minCount: number): Promise<number[]> {
  const rows = await em.execute<{ id: number }[]>(
    `select id from streams where active and health <> 'offline' and human_confidence >= ? and human_count >= ? order by id`,
    [minConfidence, minCount],
    'all',
  );
  return rows.map((r) => r.id);
}

/** What a rater is shown of a stream. */
export interface StreamShown {
  url: string;
  fallbackUrl: string | null;
  name: string;
  category: Category;
}

/** What raters are shown of these streams, by id (those that exist). */
export async function streamsShown(em: EntityManager, ids: readonly number[]): Promise<Map<number, StreamShown>> {
  if (ids.length === 0) return new Map();
  const rows = await em.execute<({ id: number } & StreamShown)[]>(
    `select id, url, fallback_url as "fallbackUrl", name, category from streams where id = any(?::int[])`,
    [`{${[...new Set(ids)].join(',')}}`],
    'all',
  );
  return new Map(rows.map(({ id, ...shown }) => [id, shown]));
}
