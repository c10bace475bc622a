/**
 * Streams that discovery found, taken in by the module that owns the row: a batch goes in with
 * one statement whose unique index settles every race (two jobs finding the same stream at once
 * add it once), under the same duplicate rule as `POST /api/streams` — the identity is
 * `normalizeStreamUrl` of the address, computed here. Streams already there are marked seen.
 */
import type { EntityManager } from '../../db.ts';
import type { Changes } from '../../domain/changes.ts';
import type { Category } from '../../shared/constants.ts';
import { headersInactiveReason, type RequestHeaders } from '../../shared/streams/request-headers.ts';
import { normalizeStreamUrl } from '../../shared/streams/url.ts';

export interface DiscoveredStreamRow {
  name: string;
  url: string;
  description: string;
  category: Category;
  locationName: string;
  latitude: number;
  longitude: number;
  timezone: string;
  /** Headers its player must send: the stream goes in inactive, saying why. */
  headers: RequestHeaders | null;
}

export interface TakenIn {
  /** Ids of the streams added. */
  added: number[];
  /** Of those, how many went in inactive (they need headers a browser cannot send). */
  inactive: number;
  /** Rows the pool already had (marked seen instead). */
  known: number;
}

/** The identity of a stream's address, as every way into the pool computes it. */
export const streamIdentity = normalizeStreamUrl;

/** Adds the streams the pool does not have (one statement), marks the others seen. */
export async function takeInDiscovered(tx: EntityManager, changes: Changes, sourceId: number, rows: readonly DiscoveredStreamRow[]): Promise<TakenIn> {
  // One row per identity (ON CONFLICT may touch a row only once per statement).
  const batch = [...new Map(rows.map((r) => [streamIdentity(r.url), r])).entries()].map(([normalized, r]) => ({
    name: r.name,
    url: r.url,
    normalized_url: normalized,
    description: r.description,
    category: r.category,
    location_name: r.locationName,
    latitude: r.latitude,
    longitude: r.longitude,
    timezone: r.timezone,
    active: r.headers === null,
    inactive_reason: r.headers ? headersInactiveReason(r.headers) : null,
    request_headers: r.headers,
  }));
  if (batch.length === 0) return { added: [], inactive: 0, known: 0 };
  const inserted = await tx.execute<{ id: number; name: string; active: boolean; inserted: boolean }[]>(
    `insert into streams (name, url, normalized_url, description, category, quality, active, location_name, latitude, longitude,
        timezone, last_seen_at, discovery_source_id, inactive_reason, request_headers, created_at, updated_at)
      select r.name, r.url, r.normalized_url, r.description, r.category, 'hd', r.active, r.location_name, r.latitude, r.longitude,
        r.timezone, now(), ?, r.inactive_reason, r.request_headers, now(), now()
      from jsonb_to_recordset(?::jsonb) as r(name text, url text, normalized_url text, description text, category text,
        location_name text, latitude float8, longitude float8, timezone text, active boolean, inactive_reason text, request_headers jsonb)
      on conflict (normalized_url) do update set last_seen_at = excluded.last_seen_at
      returning id, name, active, (xmax = 0) as inserted`,
    [sourceId, JSON.stringify(batch)],
    'all',
  );
  const added = inserted.filter((r) => r.inserted);
  for (const row of added) changes.push({ type: 'stream.created', streamId: row.id, name: row.name });
  return { added: added.map((row) => row.id), inactive: added.filter((r) => !r.active).length, known: rows.length - added.length };
}

/** Marks the streams with these addresses as seen at their source now (a find filed for review that the pool already has). */
export async function markSeen(tx: EntityManager, urls: readonly string[]): Promise<void> {
  if (urls.length === 0) return;
  await tx.execute(`update streams set last_seen_at = now() where normalized_url in (select jsonb_array_elements_text(?::jsonb))`, [JSON.stringify(urls.map((u) => streamIdentity(u)))], 'run');
}
