/** The active scenes for a bar or picker: loaded once, refreshed when pushes show it is stale. */
import { useAtomValue, useSetAtom } from 'jotai';
import { useEffect } from 'react';
import type { SceneDto } from '../../../src/shared/api/index.ts';
import { store } from '../../lib/store.ts';
import { listIsStale, loadScenesAtom, sceneListAtom } from './atoms.ts';

const REFRESH_DEBOUNCE_MS = 500;

export function useSceneList(shown: SceneDto | null) {
  const list = useAtomValue(sceneListAtom, { store });
  const load = useSetAtom(loadScenesAtom, { store });

  useEffect(() => {
    if (list.status === 'idle') void load();
  }, [list.status, load]);

  const stale = list.status === 'ready' && listIsStale(list.scenes, shown);
  useEffect(() => {
    if (!stale) return;
    const timer = setTimeout(() => void load(), REFRESH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [stale, load, shown?.updated_at]);

  return { ...list, reload: load };
}
