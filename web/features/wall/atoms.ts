/** What the Live Wall follows: the default scene (null) until someone picks a scene. */
import { atom } from 'jotai';

export const wallSceneRefAtom = atom<string | null>(null);
