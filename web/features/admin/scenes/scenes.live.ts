/**
 * The scenes' live slice: every scene (active or not), what each active scene shows now (the
 * same resolution walls get, for the cards' previews), and the default scene with who changed
 * it. Pushes and fetches merge by the one versioned rule; a push that cannot carry the row
 * (a deactivation, the default moving) makes a fetch, labelled like every other.
 */
import { atom } from 'jotai';
import type { DefaultSceneDto, SceneDto, SceneStreamDto } from '../../../../src/shared/api/index.ts';
import { applyFetch, applyFetchOne, applyPush, type LiveRecords } from '../../../../src/shared/live-records.ts';
import { call, sceneRef } from '../../../lib/api.ts';
import { store } from '../../../lib/store.ts';
import { adminApi } from '../admin-api.ts';
import { emptyList, fetchInto, fetchValue, itemsOf, label, pushInto, type LiveList, type LiveSlice, type LiveValue } from '../live/live.ts';

export const scenesAtom = atom<LiveList<SceneDto>>(emptyList<SceneDto>());
/** Per active scene: the streams it shows now, in wall order. */
export const sceneStreamsAtom = atom<LiveRecords<readonly SceneStreamDto[]>>(new Map());
export const defaultSceneAtom = atom<LiveValue<DefaultSceneDto>>(null);

/** The streams of each scene given, as walls get them (one call each; a console has tens of scenes). */
function loadSceneStreams(scenes: readonly SceneDto[]): void {
  for (const scene of scenes.filter((s) => s.active)) {
    const started = label();
    call('scene.streams', { params: { idOrSlug: sceneRef(scene) } }).then(
      (streams) => store.set(sceneStreamsAtom, (records) => applyFetchOne(records, scene.id, streams, started)),
      () => undefined, // deactivated meanwhile: its push says so
    );
  }
}

export async function loadScenes(): Promise<void> {
  await fetchInto(scenesAtom, adminApi.scenes, (s) => s.id, 'Failed to fetch scenes');
  loadSceneStreams(itemsOf(store.get(scenesAtom)));
}

export const loadDefaultScene = () => fetchValue(defaultSceneAtom, adminApi.defaultScene, 'Failed to load the default scene');

export const scenesLive: LiveSlice = {
  name: 'scenes',
  load() {
    void loadScenes();
    void loadDefaultScene();
  },
  listen(socket) {
    socket.on('scene:updated', ({ version, scene, streams }) => {
      pushInto(scenesAtom, scene.id, scene, version);
      store.set(sceneStreamsAtom, (records) => applyPush(records, scene.id, streams, version));
    });
    // A deleted scene is deactivated, not gone: its row comes back from a fetch.
    socket.on('scene:deleted', ({ version, scene_id }) => {
      store.set(sceneStreamsAtom, (records) => applyPush(records, scene_id, null, version));
      void fetchInto(scenesAtom, adminApi.scenes, (s) => s.id, 'Failed to fetch scenes');
    });
    socket.on('scene:default-changed', ({ version, scene, streams }) => {
      pushInto(scenesAtom, scene.id, scene, version);
      store.set(sceneStreamsAtom, (records) => applyPush(records, scene.id, streams, version));
      // Who switched it, and the previous default's row, come from fetches.
      void loadDefaultScene();
      void fetchInto(scenesAtom, adminApi.scenes, (s) => s.id, 'Failed to fetch scenes');
    });
  },
};

/** After this console saved a scene: its row at once (its push will agree). */
export function rememberScene(scene: SceneDto): void {
  store.set(scenesAtom, (list) => ({ ...list, records: applyFetch(list.records, [scene], (s) => s.id, label(), false) }));
}
