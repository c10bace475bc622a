/**
 * A stream's still, written only here (the streams module owns the row; the quality analysis
 * hands its picture over, as it does its score): one row per stream, replaced by each new
 * picture, gone with the stream (the database cascades). Reads never hydrate the bytes unless
 * the picture itself is asked for.
 */
import type { EntityManager } from '../../db.ts';
import { iso } from './stream.presenter.ts';
import { StreamStill, type StillType } from './stream-still.entity.ts';

export interface StillPicture {
  contentType: StillType;
  bytes: Buffer;
  width: number;
  height: number;
}

/** Stores the stream's new still in place of the old one (the caller's transaction; the stream exists). */
export async function recordStill(tx: EntityManager, streamId: number, picture: StillPicture, takenAt = new Date()): Promise<void> {
  await tx.upsert(StreamStill, { stream: streamId, contentType: picture.contentType, bytes: picture.bytes, width: picture.width, height: picture.height, takenAt });
}

/** What is known of a still without its bytes (the ETag, the 404), and whether its stream is active. */
export interface StillHead {
  contentType: StillType;
  takenAt: Date;
  active: boolean;
}

export async function stillHead(em: EntityManager, streamId: number): Promise<StillHead | null> {
  const [row] = await em.execute<{ content_type: StillType; taken_at: Date | string; active: boolean }[]>(
    'select ss.content_type, ss.taken_at, st.active from stream_stills ss join streams st on st.id = ss.stream_id where ss.stream_id = ?',
    [streamId],
    'all',
  );
  return row ? { contentType: row.content_type, takenAt: new Date(iso(row.taken_at)), active: row.active } : null;
}

/** The picture itself, with the head it belongs to (read together, so the tag matches the bytes). */
export async function stillPicture(em: EntityManager, streamId: number): Promise<(StillHead & { bytes: Buffer }) | null> {
  const [row] = await em.execute<{ content_type: StillType; taken_at: Date | string; active: boolean; bytes: Buffer }[]>(
    'select ss.content_type, ss.taken_at, ss.bytes, st.active from stream_stills ss join streams st on st.id = ss.stream_id where ss.stream_id = ?',
    [streamId],
    'all',
  );
  return row ? { contentType: row.content_type, takenAt: new Date(iso(row.taken_at)), active: row.active, bytes: row.bytes } : null;
}
