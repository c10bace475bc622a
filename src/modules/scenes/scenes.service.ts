/**
 * Scenes: saving (slug, slots), soft deletion, the default scene, and resolving which streams a
 * scene shows right now through the shared selection rules.
 */
import { QueryOrder } from '@mikro-orm/core';
import type { SceneCreate, SceneStreamDto, SceneUpdate } from '../../shared/api.ts';
import { DEFAULT_SCENE_KEY } from '../../shared/constants.ts';
import { selectSceneStreams } from '../../shared/scenes/selection.ts';
import { slugify, uniqueSlug } from '../../shared/scenes/slug.ts';
import type { EntityManager } from '../../db.ts';
import { badRequest, conflict, notFound } from '../../http/errors.ts';
import type { Changes, DomainChange } from '../../realtime/changes.ts';
import { getConfigValue, setConfigValue } from '../config/config.service.ts';
import { presentStream } from '../streams/stream.presenter.ts';
import { Stream } from '../streams/stream.entity.ts';
import { Scene, SceneStream } from './scene.entity.ts';

const MAX_INT = 2_147_483_647;

export async function getDefaultSceneId(em: EntityManager): Promise<number | null> {
  const value = await getConfigValue(em, DEFAULT_SCENE_KEY);
  const id = value === null ? NaN : Number(value);
  return Number.isInteger(id) && id > 0 ? id : null;
}

export async function listScenes(em: EntityManager, filter: { active?: boolean | undefined } = {}): Promise<Scene[]> {
  return em.find(Scene, filter.active === undefined ? {} : { active: filter.active }, {
    orderBy: { createdAt: 'desc', id: 'desc' },
  });
}

/** Manual slots per scene: index i holds the stream at position i+1, null for an empty slot. */
export async function loadSlots(em: EntityManager, sceneIds: readonly number[]): Promise<Map<number, (number | null)[]>> {
  const slots = new Map<number, (number | null)[]>(sceneIds.map((id) => [id, []]));
  if (sceneIds.length === 0) return slots;
  const rows = await em.find(SceneStream, { scene: { $in: [...sceneIds] } }, { orderBy: { position: 'asc' } });
  for (const row of rows) {
    const list = slots.get(row.scene.id) ?? [];
    while (list.length < row.position - 1) list.push(null);
    list[row.position - 1] = row.stream.id;
    slots.set(row.scene.id, list);
  }
  return slots;
}

export async function findScene(em: EntityManager, id: number): Promise<Scene> {
  const scene = await em.findOne(Scene, { id });
  if (!scene) throw notFound(`Scene not found: ${id}`);
  return scene;
}

/** An active scene by slug, or by id when no slug matches (the switcher links by id without a slug). */
export async function findActiveScene(em: EntityManager, idOrSlug: string): Promise<Scene> {
  const bySlug = await em.findOne(Scene, { slug: idOrSlug, active: true });
  if (bySlug) return bySlug;
  if (/^\d{1,10}$/.test(idOrSlug) && Number(idOrSlug) <= MAX_INT) {
    const byId = await em.findOne(Scene, { id: Number(idOrSlug), active: true });
    if (byId) return byId;
  }
  throw notFound(`Scene not found: ${idOrSlug}`);
}

/** The streams the scene shows now, numbered 1..n by the scene's selection algorithm. */
export async function resolveSceneStreams(em: EntityManager, scene: Scene): Promise<SceneStreamDto[]> {
  const limit = scene.maxStreams;
  let pool: Stream[] = [];
  let placements: { stream_id: number; position: number }[] = [];
  // The database pre-selects in the same order selectSceneStreams sorts, so the pure rule decides.
  if (scene.selectionAlgorithm === 'recent') {
    pool = await em.find(Stream, { active: true }, { orderBy: { createdAt: 'desc', id: 'desc' }, limit });
  } else if (scene.selectionAlgorithm === 'ranked') {
    pool = await em.find(Stream, { active: true }, {
      orderBy: { qualityScore: QueryOrder.DESC_NULLS_LAST, createdAt: 'desc', id: 'desc' },
      limit,
    });
  } else if (scene.selectionAlgorithm === 'manual') {
    const slots = await em.find(SceneStream, { scene: scene.id }, { populate: ['stream'], orderBy: { position: 'asc' } });
    pool = slots.map((slot) => slot.stream);
    placements = slots.map((slot) => ({ stream_id: slot.stream.id, position: slot.position }));
  }
  return selectSceneStreams(
    { selection_algorithm: scene.selectionAlgorithm, max_streams: scene.maxStreams },
    pool.map(presentStream),
    placements,
  );
}

/** The slug for a scene named `name`, unique against every other scene. */
export async function sceneSlugFor(em: EntityManager, name: string, exceptId?: number): Promise<string | null> {
  const base = slugify(name);
  if (base === '') return null;
  const rows = await em.find(
    Scene,
    { $or: [{ slug: base }, { slug: { $like: `${base}-%` } }], ...(exceptId ? { id: { $ne: exceptId } } : {}) },
    { fields: ['slug'] },
  );
  return uniqueSlug(name, new Set(rows.map((row) => row.slug).filter((s): s is string => !!s)));
}

/** Spec §4: all existing slot links are removed, then the filled slots inserted with positions. */
async function replaceSlots(em: EntityManager, scene: Scene, streamIds: readonly (number | null)[]): Promise<void> {
  const wanted = streamIds.filter((id): id is number => id !== null);
  if (wanted.length > 0) {
    const found = await em.find(Stream, { id: { $in: wanted } }, { fields: ['id'] });
    const known = new Set(found.map((s) => s.id));
    const missing = wanted.find((id) => !known.has(id));
    if (missing !== undefined) throw badRequest(`stream_ids: Unknown stream ${missing}`);
  }
  await em.nativeDelete(SceneStream, { scene: scene.id });
  streamIds.forEach((streamId, index) => {
    if (streamId === null) return;
    em.create(SceneStream, { scene, stream: em.getReference(Stream, streamId), position: index + 1, manualPriority: 0 });
  });
}

export async function createScene(em: EntityManager, changes: Changes, input: SceneCreate): Promise<Scene> {
  const scene = em.create(Scene, {
    slug: await sceneSlugFor(em, input.name),
    name: input.name,
    description: input.description ?? null,
    prompt: input.prompt ?? null,
    selectionAlgorithm: input.selection_algorithm,
    maxStreams: input.max_streams,
    layoutType: input.layout_type,
    active: input.active,
  });
  await em.flush();
  if (input.stream_ids) await replaceSlots(em, scene, input.stream_ids);
  await em.flush();
  changes.push({ type: 'scene.created', sceneId: scene.id });
  return scene;
}

export async function updateScene(em: EntityManager, changes: Changes, input: SceneUpdate): Promise<Scene> {
  const scene = await findScene(em, input.id);
  if (input.active === false && scene.active && (await getDefaultSceneId(em)) === scene.id) {
    throw conflict('The default scene cannot be deactivated. Choose another default scene first.');
  }
  if (input.name !== undefined) {
    scene.name = input.name;
    scene.slug = await sceneSlugFor(em, input.name, scene.id);
  }
  if (input.description !== undefined) scene.description = input.description;
  if (input.prompt !== undefined) scene.prompt = input.prompt;
  if (input.selection_algorithm !== undefined) scene.selectionAlgorithm = input.selection_algorithm;
  if (input.max_streams !== undefined) scene.maxStreams = input.max_streams;
  if (input.layout_type !== undefined) scene.layoutType = input.layout_type;
  if (input.active !== undefined) scene.active = input.active;
  if (input.stream_ids !== undefined) await replaceSlots(em, scene, input.stream_ids);
  scene.updatedAt = new Date(); // a slot-only change is still a change of the scene
  await em.flush();
  changes.push({ type: 'scene.updated', sceneId: scene.id });
  return scene;
}

/** Soft delete (spec §4): the scene becomes inactive; the default scene is refused. */
export async function deleteScene(em: EntityManager, changes: Changes, id: number): Promise<void> {
  const scene = await findScene(em, id);
  if ((await getDefaultSceneId(em)) === scene.id) {
    throw conflict('The default scene cannot be deleted. Choose another default scene first.');
  }
  if (!scene.active) return;
  scene.active = false;
  await em.flush();
  changes.push({ type: 'scene.deleted', sceneId: scene.id });
}

export async function setDefaultScene(em: EntityManager, changes: Changes, sceneId: number, actor: string): Promise<void> {
  const scene = await findScene(em, sceneId);
  if (!scene.active) throw conflict('An inactive scene cannot be the default scene');
  if ((await getDefaultSceneId(em)) === scene.id) return;
  await setConfigValue(em, DEFAULT_SCENE_KEY, String(scene.id), {
    updatedBy: actor,
    description: 'The scene walls and kiosks show by default',
  });
  changes.push({ type: 'default-scene.changed', sceneId: scene.id });
}

/**
 * The scenes a batch of changes may change on screen: edited scenes; for stream changes,
 * every active recent or ranked scene (any stream can enter or leave their pool) and every
 * scene that places the stream (deleted streams carry the scenes they were in).
 */
export async function affectedScenes(
  em: EntityManager,
  changes: readonly DomainChange[],
): Promise<{ sceneIds: number[]; defaultChanged: boolean }> {
  const sceneIds = new Set<number>();
  const streamIds = new Set<number>();
  let defaultChanged = false;
  for (const change of changes) {
    switch (change.type) {
      case 'scene.created':
      case 'scene.updated':
      case 'scene.deleted':
        sceneIds.add(change.sceneId);
        break;
      case 'default-scene.changed':
        defaultChanged = true;
        break;
      case 'stream.deleted':
        change.sceneIds.forEach((id) => sceneIds.add(id));
        streamIds.add(change.streamId);
        break;
      case 'stream.created':
      case 'stream.updated':
        streamIds.add(change.streamId);
        break;
    }
  }
  if (streamIds.size > 0) {
    const poolScenes = await em.find(Scene, { active: true, selectionAlgorithm: { $in: ['recent', 'ranked'] } }, { fields: ['id'] });
    poolScenes.forEach((scene) => sceneIds.add(scene.id));
    const slots = await em.find(SceneStream, { stream: { $in: [...streamIds] } }, { fields: ['scene'] });
    slots.forEach((slot) => sceneIds.add(slot.scene.id));
  }
  return { sceneIds: [...sceneIds].sort((a, b) => a - b), defaultChanged };
}
