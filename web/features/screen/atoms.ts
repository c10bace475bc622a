/**
 * What this screen shows, as pushed by the scene controller, and what it will show next.
 * Messages go through the stage rule (src/shared/screen-stage.ts, on top of screen-state.ts's
 * version rule): a late or repeated push never rolls the screen back, and a change with an
 * instant waits for it (being prepared meanwhile); registering for something else starts afresh.
 */
import { atom } from 'jotai';
import type { ClockEstimate } from '../../../src/shared/clock.ts';
import type { ConnectionStatus } from '../../../src/shared/screen-client.ts';
import { drawnAhead, EMPTY_STAGE, flip, receive, type ScreenStage } from '../../../src/shared/screen-stage.ts';
import type { ScreenMessage, ScreenTarget } from '../../../src/shared/screen-state.ts';

const screenAtom = atom<{ target: ScreenTarget | null; stage: ScreenStage }>({ target: null, stage: EMPTY_STAGE });

export const screenStateAtom = atom((get) => get(screenAtom).stage.shown);
/** The state waiting for its instant (its players load out of sight), or null. */
export const waitingStateAtom = atom((get) => get(screenAtom).stage.waiting);
/** What the page draws ahead of the waiting flip (src/shared/screen-stage.ts `drawnAhead`), or null. */
export const nextSideAtom = atom((get) => drawnAhead(get(waitingStateAtom)?.state ?? null));
export const connectionStatusAtom = atom<ConnectionStatus>('connecting');
/** This screen's estimate of the server's clock (null until the first burst of samples answers). */
export const clockAtom = atom<ClockEstimate | null>(null);

/** Start following something else: the old state (and its version) no longer applies. */
export const followAtom = atom(null, (_get, set, target: ScreenTarget) => {
  set(screenAtom, { target, stage: EMPTY_STAGE });
});

/** Fold one hub message into the stage (ignored when stale or for another target). */
export const screenMessageAtom = atom(null, (get, set, message: ScreenMessage) => {
  const { target, stage } = get(screenAtom);
  if (!target) return;
  const next = receive(stage, message, target, get(clockAtom), performance.now());
  if (next !== stage) set(screenAtom, { target, stage: next });
});

/** The waiting state's instant has come: show it. */
export const flipAtom = atom(null, (get, set) => {
  const { target, stage } = get(screenAtom);
  if (stage.waiting) set(screenAtom, { target, stage: flip(stage) });
});
