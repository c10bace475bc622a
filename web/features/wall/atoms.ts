/**
 * What the Live Wall follows: the default scene (null) until someone picks a scene. The pick is
 * kept in sessionStorage, so a reload (a new version, an operator's Reload) comes back on it.
 */
import { atom } from 'jotai';

const PICK_KEY = 'nw:wall-scene';

function savedPick(): string | null {
  try {
    return sessionStorage.getItem(PICK_KEY);
  } catch {
    return null;
  }
}

const pickAtom = atom<string | null>(savedPick());

export const wallSceneRefAtom = atom(
  (get) => get(pickAtom),
  (_get, set, ref: string | null) => {
    set(pickAtom, ref);
    try {
      if (ref === null) sessionStorage.removeItem(PICK_KEY);
      else sessionStorage.setItem(PICK_KEY, ref);
    } catch {
      /* no storage: the pick lasts until a reload */
    }
  },
);
