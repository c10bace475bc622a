/**
 * What this screen shows, as pushed by the scene controller. Messages go through
 * applyScreenMessage, so a late or repeated push (lower or equal version) never rolls the
 * screen back; registering for something else starts a fresh state.
 */
import { atom } from 'jotai';
import type { ScreenState } from '../../../src/shared/events.ts';
import type { ConnectionStatus } from '../../../src/shared/screen-client.ts';
import { applyScreenMessage, type ScreenMessage, type ScreenTarget } from '../../../src/shared/screen-state.ts';

const screenAtom = atom<{ target: ScreenTarget | null; state: ScreenState | null }>({ target: null, state: null });

export const screenStateAtom = atom((get) => get(screenAtom).state);
export const connectionStatusAtom = atom<ConnectionStatus>('connecting');

/** Start following something else: the old state (and its version) no longer applies. */
export const followAtom = atom(null, (_get, set, target: ScreenTarget) => {
  set(screenAtom, { target, state: null });
});

/** Fold one hub message into the screen state (ignored when stale or for another target). */
export const screenMessageAtom = atom(null, (get, set, message: ScreenMessage) => {
  const { target, state } = get(screenAtom);
  if (!target) return;
  const next = applyScreenMessage(state, message, target);
  if (next !== state) set(screenAtom, { target, state: next });
});
