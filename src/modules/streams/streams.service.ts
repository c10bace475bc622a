/** Stream commands and queries: the stream pool every scene draws from. */
import type { StreamCreate, StreamUpdate } from '../../shared/api/index.ts';
import type { RequestHeaders } from '../../shared/streams/request-headers.ts';
import { normalizeStreamUrl } from '../../shared/streams/url.ts';
import type { EntityManager } from '../../db.ts';
import type { Changes } from '../../domain/changes.ts';
import { conflict, notFound } from '../../domain/errors.ts';
import { Stream } from './stream.entity.ts';
import { settleLoopedHealth } from './stream-quality.ts';

export const DUPLICATE_STREAM = 'Duplicate stream detected';

/** All streams, newest first; `active` narrows to active or inactive ones. */
export async function listStreams(em: EntityManager, filter: { active?: boolean | undefined } = {}): Promise<Stream[]> {
  return em.find(Stream, filter.active === undefined ? {} : { active: filter.active }, {
    orderBy: { createdAt: 'desc', id: 'desc' },
  });
}

export async function findStream(em: EntityManager, id: number): Promise<Stream> {
  const stream = await em.findOne(Stream, { id });
  if (!stream) throw notFound(`Stream not found: ${id}`);
  return stream;
}

async function assertUniqueUrl(em: EntityManager, normalizedUrl: string, exceptId?: number): Promise<void> {
  const existing = await em.findOne(Stream, { normalizedUrl }, { fields: ['id'] });
  if (existing && existing.id !== exceptId) throw conflict(DUPLICATE_STREAM);
}

/** What a stream may carry beyond the admin's form: headers from a playlist, and why it is kept inactive. */
export interface StreamIntake {
  requestHeaders?: RequestHeaders | null;
  inactiveReason?: string | null;
}

export async function createStream(em: EntityManager, changes: Changes, input: StreamCreate, intake: StreamIntake = {}): Promise<Stream> {
  const normalizedUrl = normalizeStreamUrl(input.url);
  await assertUniqueUrl(em, normalizedUrl);
  const stream = em.create(Stream, {
    name: input.name,
    url: input.url,
    normalizedUrl,
    fallbackUrl: input.fallback_url ?? null,
    description: input.description ?? null,
    category: input.category,
    quality: input.quality,
    active: input.active,
    locationName: input.location_name ?? null,
    latitude: input.latitude ?? null,
    longitude: input.longitude ?? null,
    timezone: input.timezone ?? null,
    recordingOk: input.recording_ok ?? false,
    requestHeaders: intake.requestHeaders ?? null,
    inactiveReason: intake.inactiveReason ?? null,
  });
  await em.flush();
  changes.push({ type: 'stream.created', streamId: stream.id, name: stream.name });
  return stream;
}

/** Changes only the fields given; `null` clears an optional field. */
export async function updateStream(em: EntityManager, changes: Changes, input: StreamUpdate): Promise<Stream> {
  const stream = await findStream(em, input.id);
  if (input.url !== undefined && input.url !== stream.url) {
    const normalizedUrl = normalizeStreamUrl(input.url);
    await assertUniqueUrl(em, normalizedUrl, stream.id);
    stream.url = input.url;
    stream.normalizedUrl = normalizedUrl;
  }
  if (input.name !== undefined) stream.name = input.name;
  if (input.fallback_url !== undefined) stream.fallbackUrl = input.fallback_url;
  if (input.description !== undefined) stream.description = input.description;
  if (input.category !== undefined) stream.category = input.category;
  if (input.quality !== undefined) stream.quality = input.quality;
  if (input.active !== undefined) stream.active = input.active;
  // An admin who activates a stream the system kept inactive has decided: the reason no longer holds.
  if (input.active === true) stream.inactiveReason = null;
  if (input.location_name !== undefined) stream.locationName = input.location_name;
  if (input.latitude !== undefined) stream.latitude = input.latitude;
  if (input.longitude !== undefined) stream.longitude = input.longitude;
  if (input.timezone !== undefined) stream.timezone = input.timezone;
  if (input.recording_ok !== undefined && input.recording_ok !== stream.recordingOk) {
    stream.recordingOk = input.recording_ok;
    await settleLoopedHealth(em, stream);
  }
  await em.flush();
  changes.push({ type: 'stream.updated', streamId: stream.id, name: stream.name });
  return stream;
}

/** Which scenes place a stream (the scenes module answers: it depends on streams, so the question is lent to it). */
export type PlacementsOf = (em: EntityManager, streamId: number) => Promise<number[]>;

/**
 * Removes the stream; its scene slots go with it (the database cascades). The scenes that placed
 * it are asked first and named in the change, so they re-resolve.
 */
export async function deleteStream(em: EntityManager, changes: Changes, id: number, placementsOf: PlacementsOf): Promise<void> {
  const stream = await findStream(em, id);
  const sceneIds = await placementsOf(em, id);
  em.remove(stream);
  await em.flush();
  changes.push({ type: 'stream.deleted', streamId: id, name: stream.name, sceneIds });
}
