/**
 * Scenes: saving (slug, slots), soft deletion, the default scene, and resolving which streams a
 * scene shows right now through the shared selection rules.
 */
import type { SceneCreate, SceneUpdate } from '../../shared/api/index.ts';
import { DEFAULT_SCENE_KEY } from '../../shared/constants.ts';
import { slugify, uniqueSlug } from '../../shared/scenes/slug.ts';
import type { EntityManager } from '../../db.ts';
import type { Changes, DomainChange } from '../../domain/changes.ts';
import { conflict, notFound } from '../../domain/errors.ts';
import { configUpsert, getConfigValue } from '../config/config.service.ts';
import { Stream } from '../streams/stream.entity.ts';
import { missingStreams } from '../streams/stream-reads.ts';
import { RankedPick, Scene, SceneStream } from './scene.entity.ts';
import { slotList } from './scene-queries.ts';
import { sceneFieldsOf, type PickFields } from './scene.presenter.ts';

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
  if (sceneIds.length === 0) return new Map();
  const rows = await em.find(SceneStream, { scene: { $in: [...sceneIds] } }, { orderBy: { position: 'asc' } });
  return new Map(
    sceneIds.map((id) => [
      id,
      slotList(rows.filter((row) => row.scene.id === id).map((row) => ({ stream_id: row.stream.id, position: row.position }))),
    ]),
  );
}

/** The scenes that place a stream, by id (the streams module asks before it deletes one). */
export async function scenesPlacing(em: EntityManager, streamId: number): Promise<number[]> {
  const slots = await em.find(SceneStream, { stream: streamId }, { fields: ['scene'] });
  return [...new Set(slots.map((slot) => slot.scene.id))].sort((a, b) => a - b);
}

/** A scene by name, or null (the seed's demo scenes). */
export function sceneNamed(em: EntityManager, name: string): Promise<Scene | null> {
  return em.findOne(Scene, { name });
}

/** An active scene by id, for what points at one: a 404 names a missing one, a 409 a deleted one. */
export async function activeScene(em: EntityManager, id: number): Promise<Scene> {
  const scene = await em.findOne(Scene, { id });
  if (!scene) throw notFound(`Scene ${id} does not exist`);
  if (!scene.active) throw conflict(`Scene "${scene.name}" is deleted; choose an active scene`);
  return scene;
}

/** Ranked scenes' picks, by scene (every scene given has an entry; others' are empty). */
export async function loadPicks(em: EntityManager, sceneIds: readonly number[]): Promise<Map<number, PickFields[]>> {
  const rows = sceneIds.length ? await em.find(RankedPick, { scene: { $in: [...sceneIds] } }, { orderBy: { position: 'asc' } }) : [];
  return new Map(sceneIds.map((id) => [id, rows.filter((r) => r.scene.id === id).map((r) => ({ position: r.position, stream_id: r.stream.id, since: r.since, reason: r.reason }))]));
}

export async function findScene(em: EntityManager, id: number): Promise<Scene> {
  const scene = await em.findOne(Scene, { id });
  if (!scene) throw notFound(`Scene not found: ${id}`);
  return scene;
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
    const [missing] = await missingStreams(em, wanted);
    if (missing !== undefined) throw notFound(`stream_ids: Unknown stream ${missing}`);
  }
  await em.nativeDelete(SceneStream, { scene: scene.id });
  streamIds.forEach((streamId, index) => {
    if (streamId === null) return;
    em.create(SceneStream, { scene, stream: em.getReference(Stream, streamId), position: index + 1, manualPriority: 0 });
  });
}

export async function createScene(em: EntityManager, changes: Changes, input: SceneCreate): Promise<Scene> {
  const scene = em.create(Scene, { description: null, prompt: null, ...sceneFieldsOf(input), slug: await sceneSlugFor(em, input.name), name: input.name });
  await em.flush();
  if (input.stream_ids) await replaceSlots(em, scene, input.stream_ids);
  await em.flush();
  changes.push({ type: 'scene.created', sceneId: scene.id, name: scene.name });
  return scene;
}

export async function updateScene(em: EntityManager, changes: Changes, input: SceneUpdate): Promise<Scene> {
  const scene = await findScene(em, input.id);
  if (input.active === false && scene.active && (await getDefaultSceneId(em)) === scene.id) {
    throw conflict('The default scene cannot be deactivated. Choose another default scene first.');
  }
  em.assign(scene, sceneFieldsOf(input));
  if (input.name !== undefined) scene.slug = await sceneSlugFor(em, input.name, scene.id);
  if (input.stream_ids !== undefined) await replaceSlots(em, scene, input.stream_ids);
  scene.updatedAt = new Date(); // a slot-only change is still a change of the scene
  await em.flush();
  changes.push({ type: 'scene.updated', sceneId: scene.id, name: scene.name });
  return scene;
}

/** Soft delete (spec §4): the scene becomes inactive; the default scene is refused. */
export async function deleteScene(em: EntityManager, changes: Changes, id: number, inUse?: (em: EntityManager, sceneId: number) => Promise<string | null>): Promise<void> {
  const scene = await findScene(em, id);
  if ((await getDefaultSceneId(em)) === scene.id) {
    throw conflict('The default scene cannot be deleted. Choose another default scene first.');
  }
  if (!scene.active) return;
  const use = await inUse?.(em, scene.id);
  if (use) throw conflict(`"${scene.name}" cannot be deleted: ${use}`);
  scene.active = false;
  await em.flush();
  changes.push({ type: 'scene.deleted', sceneId: scene.id, name: scene.name });
}

const DEFAULT_SCENE_DESCRIPTION = 'The scene walls and kiosks show by default';

/**
 * Spec §7 "Init", idempotent: the scene named Default (recent, 5 streams) and the
 * `default_scene_id` setting, each created only when missing. Says what it did.
 */
export async function ensureDefaultScene(
  em: EntityManager,
  changes: Changes,
): Promise<{ sceneId: number; createdScene: boolean; setDefault: boolean }> {
  let scene = await em.findOne(Scene, { name: 'Default' });
  const createdScene = !scene;
  if (!scene) {
    scene = em.create(Scene, {
      slug: await sceneSlugFor(em, 'Default'),
      name: 'Default',
      description: 'The newest streams in the pool',
      selectionAlgorithm: 'recent',
      maxStreams: 5,
      layoutType: 'grid',
      active: true,
    });
    await em.flush();
    changes.push({ type: 'scene.created', sceneId: scene.id, name: scene.name });
  }
  const setDefault = (await getConfigValue(em, DEFAULT_SCENE_KEY)) === null;
  if (setDefault) await setDefaultScene(em, changes, scene.id, 'system');
  return { sceneId: (await getDefaultSceneId(em)) ?? scene.id, createdScene, setDefault };
}

/**
 * Makes an active scene the default — the one place the default scene changes. One statement
 * (atomic, no transaction needed): the scene check and the config upsert cannot be split by a
 * concurrent deactivation, and every wall waits on this write, so it is one round trip.
 * `actor` is recorded as `system_config.updated_by`.
 */
export async function setDefaultScene(em: EntityManager, changes: Changes, sceneId: number, actor: string): Promise<void> {
  const upsert = configUpsert(
    { key: DEFAULT_SCENE_KEY, value: String(sceneId), updatedBy: actor, description: DEFAULT_SCENE_DESCRIPTION },
    'from target where active',
  );
  const [result] = await em.execute<{ active: boolean | null; changed: boolean }[]>(
    `with target as (select active from scenes where id = ?),
     up as (${upsert.sql})
     select (select active from target) as active, exists (select 1 from up) as changed`,
    [sceneId, ...upsert.params],
  );
  if (!result || result.active === null) throw notFound(`Scene not found: ${sceneId}`);
  if (!result.active) throw conflict('An inactive scene cannot be the default scene');
  if (result.changed) changes.push({ type: 'default-scene.changed', sceneId });
}

/**
 * The scenes a batch of changes may change on screen: edited scenes; for stream changes,
 * every active recent or ranked scene (any stream can enter or leave their pool) and every
 * scene that places the stream (deleted streams carry the scenes they were in).
 */
export async function affectedScenes(
  em: EntityManager,
  changes: readonly DomainChange[],
): Promise<{ sceneIds: number[]; defaultSceneId: number | null }> {
  const sceneIds = new Set<number>();
  const streamIds = new Set<number>();
  let defaultSceneId: number | null = null;
  for (const change of changes) {
    switch (change.type) {
      case 'scene.created':
      case 'scene.updated':
      case 'scene.picks-changed':
      case 'scene.deleted':
        sceneIds.add(change.sceneId);
        break;
      case 'default-scene.changed':
        defaultSceneId = change.sceneId;
        break;
      case 'scene.daylight':
        change.sceneIds.forEach((id) => sceneIds.add(id));
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
  return { sceneIds: [...sceneIds].sort((a, b) => a - b), defaultSceneId };
}
