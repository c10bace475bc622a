import { defineEntity, p } from '@mikro-orm/core';
import { HEALTH_STATES } from '../../shared/quality/health.ts';
import { Stream } from './stream.entity.ts';

/**
 * A stream's health history, append-only: one row each time its health changed (written with
 * the change, in stream-quality.ts), so its uptime over a day or a week can be told
 * (src/shared/uptime.ts). Rows older than the longest window are dropped, except the last one
 * before it (the state the window starts in).
 */
export const StreamHealthChangeSchema = defineEntity({
  name: 'StreamHealthChange',
  tableName: 'stream_health_changes',
  properties: {
    id: p.bigint('number').primary().autoincrement(),
    stream: () => p.manyToOne(Stream).deleteRule('cascade'),
    at: p.datetime(),
    health: p.enum(HEALTH_STATES),
  },
  indexes: [{ name: 'stream_health_changes_stream_at_idx', properties: ['stream', 'at'] }],
});

export class StreamHealthChange extends StreamHealthChangeSchema.class {}
StreamHealthChangeSchema.setClass(StreamHealthChange);
