import { defineEntity, p } from '@mikro-orm/core';
import { LAYOUT_TYPES, SELECTION_ALGORITHMS } from '../../shared/constants.ts';
import { Stream } from '../streams/stream.entity.ts';

export const SceneSchema = defineEntity({
  name: 'Scene',
  tableName: 'scenes',
  properties: {
    id: p.integer().primary(),
    /** Null when the name has no letters or digits; unique otherwise. */
    slug: p.text().nullable().unique('scenes_slug_unique'),
    name: p.text(),
    description: p.text().nullable(),
    prompt: p.text().nullable(),
    selectionAlgorithm: p.enum(SELECTION_ALGORITHMS).default('manual'),
    maxStreams: p.integer().default(5),
    layoutType: p.enum(LAYOUT_TYPES).default('grid'),
    active: p.boolean().default(true),
    createdAt: p.datetime().defaultRaw('now()').onCreate(() => new Date()),
    updatedAt: p.datetime().defaultRaw('now()').onCreate(() => new Date()).onUpdate(() => new Date()),
  },
  checks: [
    { name: 'scenes_name_check', expression: "btrim(name) <> ''" },
    { name: 'scenes_slug_check', expression: "slug <> ''" },
    { name: 'scenes_max_streams_check', expression: 'max_streams between 1 and 5' },
  ],
});

export class Scene extends SceneSchema.class {}
SceneSchema.setClass(Scene);

/** A manual scene's slot: which stream sits at position 1-5. */
export const SceneStreamSchema = defineEntity({
  name: 'SceneStream',
  tableName: 'scene_streams',
  properties: {
    id: p.integer().primary(),
    scene: () => p.manyToOne(Scene).deleteRule('cascade'),
    stream: () => p.manyToOne(Stream).deleteRule('cascade').index('scene_streams_stream_idx'),
    position: p.integer(),
    manualPriority: p.integer().default(0),
  },
  uniques: [
    { name: 'scene_streams_scene_position_unique', properties: ['scene', 'position'] },
    { name: 'scene_streams_scene_stream_unique', properties: ['scene', 'stream'] },
  ],
  checks: [{ name: 'scene_streams_position_check', expression: 'position between 1 and 5' }],
});

export class SceneStream extends SceneStreamSchema.class {}
SceneStreamSchema.setClass(SceneStream);

/**
 * A ranked scene's picks: which stream holds each tile, since when and why. A tile changes only
 * when a candidate is clearly better and it has been on screen long enough (src/shared/scenes/ranking.ts).
 */
export const RankedPickSchema = defineEntity({
  name: 'RankedPick',
  tableName: 'ranked_picks',
  properties: {
    scene: () => p.manyToOne(Scene).primary().deleteRule('cascade'),
    position: p.smallint().primary(),
    stream: () => p.manyToOne(Stream).deleteRule('cascade'),
    since: p.datetime().defaultRaw('now()'),
    reason: p.text(),
  },
});

export class RankedPick extends RankedPickSchema.class {}
RankedPickSchema.setClass(RankedPick);
