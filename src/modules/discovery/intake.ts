/**
 * What discovery adds, decided by the database: a batch of finds goes in with one statement
 * whose unique indexes settle every race (two jobs finding the same stream at once add it once).
 * Pool delivery inserts streams (named from the platform's title, in the category triage gave,
 * located by the suggestion rules; inactive, with the reason, when they need request headers) and
 * bumps `last_seen_at` of those already there; review delivery files pending submissions instead. A find with a pending submission is never added twice either.
 */
import type { EntityManager } from '../../db.ts';
import type { Changes } from '../../domain/changes.ts';
import { LIMITS } from '../../shared/constants.ts';
import { suggestLocationForCategory } from '../../shared/streams/location-suggestion.ts';
import { guessPlatform } from '../../shared/streams/platform.ts';
import { headersInactiveReason } from '../../shared/streams/request-headers.ts';
import { suggestName, thumbnailUrl } from '../../shared/streams/url.ts';
import type { Find } from './triage.ts';

export interface IntakeSource {
  id: number;
  name: string;
}

function nameOf(find: Find): string {
  const title = find.title?.replace(/\s+/g, ' ').trim();
  if (title) return title.slice(0, LIMITS.name);
  try {
    return suggestName(find.url).slice(0, LIMITS.name);
  } catch {
    return 'New stream'; // a malformed %-escape in the path
  }
}

/** One find per identity within a batch (ON CONFLICT may touch a row only once per statement). */
function unique(finds: readonly Find[]): Find[] {
  return [...new Map(finds.map((f) => [f.normalizedUrl, f])).values()];
}

export interface PoolIntake {
  /** Ids of the streams added. */
  added: number[];
  /** Of those, how many went in inactive (they need headers a browser cannot send). */
  inactive: number;
  /** Finds the pool or the review queue already had (their `last_seen_at` is bumped). */
  known: number;
}

/** Inserts new streams, marks known ones seen. */
export async function addToPool(tx: EntityManager, changes: Changes, source: IntakeSource, finds: readonly Find[]): Promise<PoolIntake> {
  const batch = unique(finds);
  const rows = batch.map((find) => {
    const place = suggestLocationForCategory(find.category, find.normalizedUrl);
    return {
      name: nameOf(find),
      url: find.url,
      normalized_url: find.normalizedUrl,
      description: `Discovered by ${source.name}`.slice(0, LIMITS.description),
      category: find.category,
      location_name: place.name,
      latitude: place.coordinates.lat,
      longitude: place.coordinates.lon,
      timezone: place.timezone,
      active: find.headers === null,
      inactive_reason: find.headers ? headersInactiveReason(find.headers) : null,
      request_headers: find.headers,
    };
  });
  if (rows.length === 0) return { added: [], inactive: 0, known: finds.length - batch.length };
  const inserted = await tx.execute<{ id: number; name: string; active: boolean; inserted: boolean }[]>(
    `insert into streams (name, url, normalized_url, description, category, quality, active, location_name, latitude, longitude,
        timezone, last_seen_at, discovery_source_id, inactive_reason, request_headers, created_at, updated_at)
      select r.name, r.url, r.normalized_url, r.description, r.category, 'hd', r.active, r.location_name, r.latitude, r.longitude,
        r.timezone, now(), ?, r.inactive_reason, r.request_headers, now(), now()
      from jsonb_to_recordset(?::jsonb) as r(name text, url text, normalized_url text, description text, category text,
        location_name text, latitude float8, longitude float8, timezone text, active boolean, inactive_reason text, request_headers jsonb)
      where not exists (select 1 from submissions s where s.normalized_url = r.normalized_url and s.status = 'pending')
      on conflict (normalized_url) do update set last_seen_at = excluded.last_seen_at
      returning id, name, active, (xmax = 0) as inserted`,
    [source.id, JSON.stringify(rows)],
    'all',
  );
  const added = inserted.filter((r) => r.inserted);
  for (const row of added) changes.push({ type: 'stream.created', streamId: row.id, name: row.name });
  return { added: added.map((row) => row.id), inactive: added.filter((r) => !r.active).length, known: finds.length - added.length };
}

/** Files finds the pool does not have as pending submissions; returns how many were filed and how many were known. */
export async function sendToReview(tx: EntityManager, changes: Changes, source: IntakeSource, finds: readonly Find[]): Promise<{ filed: number; known: number }> {
  const rows = unique(finds).map((find) => ({
    url: find.url,
    normalized_url: find.normalizedUrl,
    title: nameOf(find),
    platform: guessPlatform(find.url),
    thumbnail: thumbnailUrl(find.url) ?? find.thumbnail,
    request_headers: find.headers,
  }));
  if (rows.length === 0) return { filed: 0, known: finds.length };
  const json = JSON.stringify(rows);
  await tx.execute(
    `update streams set last_seen_at = now() where normalized_url in (select r.normalized_url from jsonb_to_recordset(?::jsonb) as r(normalized_url text))`,
    [json],
    'run',
  );
  const filed = await tx.execute<{ id: number; title: string }[]>(
    `insert into submissions (url, normalized_url, title, platform, thumbnail, request_headers, submitted_by, status, created_at)
      select r.url, r.normalized_url, r.title, r.platform, r.thumbnail, r.request_headers, ?, 'pending', now()
      from jsonb_to_recordset(?::jsonb) as r(url text, normalized_url text, title text, platform text, thumbnail text, request_headers jsonb)
      where not exists (select 1 from streams s where s.normalized_url = r.normalized_url)
      on conflict (normalized_url) where status = 'pending' do nothing
      returning id, title`,
    [`discovery: ${source.name}`.slice(0, LIMITS.name), json],
    'all',
  );
  for (const row of filed) changes.push({ type: 'submission.created', submissionId: row.id, name: row.title });
  return { filed: filed.length, known: finds.length - filed.length };
}
