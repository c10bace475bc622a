/**
 * Where a discovery run's finds go, batch by batch, each module writing its own rows: the
 * streams module takes in the pool's finds (one statement; named from the platform's title, in
 * the category triage gave, located by the suggestion rules; inactive, with the reason, when
 * they need request headers), the submissions module files the review queue's. A find that
 * waits in the review queue is not added behind the reviewer's back.
 */
import type { EntityManager } from '../../db.ts';
import type { Changes } from '../../domain/changes.ts';
import { LIMITS } from '../../shared/constants.ts';
import { suggestLocationForCategory } from '../../shared/streams/location-suggestion.ts';
import { suggestName } from '../../shared/streams/url.ts';
import { markSeen, takeInDiscovered, type TakenIn } from '../streams/stream-intake.ts';
import { fileDiscovered, pendingAmong } from '../submissions/submissions.service.ts';
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

/** Adds the finds the pool does not have; those it has, or that wait for review, are known. */
export async function addToPool(tx: EntityManager, changes: Changes, source: IntakeSource, finds: readonly Find[]): Promise<TakenIn> {
  const waiting = await pendingAmong(tx, finds.map((f) => f.url));
  const fresh = finds.filter((f) => !waiting.has(f.normalizedUrl));
  const taken = await takeInDiscovered(tx, changes, source.id, fresh.map((find) => {
    const place = suggestLocationForCategory(find.category, find.normalizedUrl);
    return {
      name: nameOf(find),
      url: find.url,
      description: `Discovered by ${source.name}`.slice(0, LIMITS.description),
      category: find.category,
      locationName: place.name,
      latitude: place.coordinates.lat,
      longitude: place.coordinates.lon,
      timezone: place.timezone,
      headers: find.headers,
    };
  }));
  return { ...taken, known: taken.known + (finds.length - fresh.length) };
}

/** Files the finds for review; those the pool has are marked seen there. */
export async function sendToReview(tx: EntityManager, changes: Changes, source: IntakeSource, finds: readonly Find[]): Promise<{ filed: number; known: number }> {
  await markSeen(tx, finds.map((f) => f.url));
  return fileDiscovered(tx, changes, `discovery: ${source.name}`.slice(0, LIMITS.name), finds.map((find) => ({ url: find.url, title: nameOf(find), thumbnail: find.thumbnail, headers: find.headers })));
}
