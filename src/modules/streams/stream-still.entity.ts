import { defineEntity, p } from '@mikro-orm/core';
import { Stream } from './stream.entity.ts';

/** The picture types a still may be stored (and served from our origin) as: never SVG or HTML. */
export const STILL_TYPES = ['image/jpeg', 'image/webp', 'image/png'] as const;
export type StillType = (typeof STILL_TYPES)[number];

/**
 * A stream's current still: one small picture of what it shows, replaced by every analysis that
 * takes one (a frame of a direct stream's sample, or its platform's thumbnail). The bytes are
 * lazy: a stream list reads `taken_at` only, the picture is read when it is served.
 */
export const StreamStillSchema = defineEntity({
  name: 'StreamStill',
  tableName: 'stream_stills',
  properties: {
    stream: () => p.oneToOne(Stream).primary().deleteRule('cascade'),
    contentType: p.enum(STILL_TYPES),
    bytes: p.blob().lazy(),
    width: p.integer(),
    height: p.integer(),
    takenAt: p.datetime(),
  },
});

export class StreamStill extends StreamStillSchema.class {}
StreamStillSchema.setClass(StreamStill);
