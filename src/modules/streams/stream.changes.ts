/**
 * The streams module's change types and the pushes they make: admin consoles keep their
 * stream list in step (screens learn of stream edits through the scenes they show).
 */
import type { Orm } from '../../db.ts';
import { changesOf } from '../../domain/changes.ts';
import { push, type FeaturePushes } from '../../realtime/pushes.ts';
import { KIND_ROOMS } from '../../realtime/rooms.ts';
import { presentStream } from './stream.presenter.ts';
import { Stream } from './stream.entity.ts';

declare module '../../domain/changes.ts' {
  interface ChangeTypes {
    'stream.created': { type: 'stream.created'; streamId: number; name: string };
    'stream.updated': { type: 'stream.updated'; streamId: number; name: string };
    /** Carries the scenes that placed the stream (their slots went with it). */
    'stream.deleted': { type: 'stream.deleted'; streamId: number; name: string; sceneIds: number[] };
  }
}

export function streamPushes(orm: Orm): FeaturePushes {
  const admins = [KIND_ROOMS.admin];
  return {
    name: 'streams',
    rooms: admins,
    async pushes(changes, { version }) {
      const saved = changesOf(changes, 'stream.created', 'stream.updated');
      const ids = [...new Set(saved.map((c) => c.streamId))];
      const streams = ids.length ? new Map((await orm.em.fork().find(Stream, { id: { $in: ids } })).map((s) => [s.id, presentStream(s)])) : new Map();
      return [
        ...saved.flatMap((c) => {
          const stream = streams.get(c.streamId);
          if (!stream) return []; // deleted again since
          return [push(admins, c.type === 'stream.created' ? 'stream:created' : 'stream:updated', { version, stream })];
        }),
        ...changesOf(changes, 'stream.deleted').map((c) => push(admins, 'stream:deleted', { version, stream_id: c.streamId })),
      ];
    },
  };
}
