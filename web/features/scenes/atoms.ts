/**
 * The list of active scenes (the bottom bar of the viewer and the Live Wall picker). The socket
 * does not carry lists, so this comes from REST: loaded when a screen needs it, and refreshed
 * when a push shows a scene the list does not know or an edit the list has not seen.
 */
import { atom } from 'jotai';
import type { SceneDto } from '../../../src/shared/api/index.ts';
import { api } from '../../lib/api.ts';

export type ScenesStatus = 'idle' | 'loading' | 'ready' | 'error';

const scenesAtom = atom<{ status: ScenesStatus; scenes: SceneDto[]; error: string | null }>({
  status: 'idle',
  scenes: [],
  error: null,
});

export const sceneListAtom = atom((get) => get(scenesAtom));

let inflight: Promise<void> | null = null;

/** Fetch the list; a refresh keeps showing the old list while it loads. */
export const loadScenesAtom = atom(null, (get, set) => {
  if (inflight) return inflight;
  const previous = get(scenesAtom);
  if (previous.status !== 'ready') set(scenesAtom, { ...previous, status: 'loading', error: null });
  inflight = api
    .activeScenes()
    .then(
      (scenes) => set(scenesAtom, { status: 'ready', scenes, error: null }),
      (error: unknown) => {
        const message = error instanceof Error ? error.message : 'Failed to fetch scenes';
        // A failed refresh keeps the list on screen; only a failed first load is an error.
        if (get(scenesAtom).status !== 'ready') set(scenesAtom, { status: 'error', scenes: [], error: message });
      },
    )
    .finally(() => {
      inflight = null;
    });
  return inflight;
});

/** True when a pushed scene is missing from the list or newer than the list's copy. */
export function listIsStale(scenes: readonly SceneDto[], shown: Pick<SceneDto, 'id' | 'updated_at'> | null): boolean {
  if (!shown) return false;
  const known = scenes.find((s) => s.id === shown.id);
  return !known || known.updated_at !== shown.updated_at;
}
