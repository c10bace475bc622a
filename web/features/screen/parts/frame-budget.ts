/**
 * A screen that cannot keep up with its tiles plays cheaper renditions: every few seconds the
 * frames its video players presented and dropped (the browser's own counts, as the
 * `dropped_frames` report reads them) decide the rendition step — one rendition down for every
 * tile while more than DROP_STEP_DOWN of the frames drop, one back up after a calm half minute.
 * The players apply it through hls.js's level cap (components/Player/capped-levels.ts), on top
 * of the cap their box sets. Small PCs and Raspberry-Pi-class boards decode in software.
 */
import { setRenditionStep } from '../rendition-step.ts';
import { framesSince, videoPlayers } from './dropped-frames.ts';
import { definePart } from './part.ts';

export const BUDGET_EVERY_MS = 5_000;
/** More than this share of frames dropped in a window: one rendition down. */
export const DROP_STEP_DOWN = 0.05;
/** Under this share for CALM_WINDOWS windows in a row: one rendition back up. */
export const DROP_CALM = 0.01;
export const CALM_WINDOWS = 6;
export const MAX_RENDITION_STEP = 3;
/** A window with fewer frames says nothing (players starting, a paused screen). */
const MIN_FRAMES = 50;

export interface BudgetState {
  step: number;
  calm: number;
}

/** Pure: the next rendition step after a window of `frames` presented and `dropped`. */
export function nextBudget(state: BudgetState, frames: number, dropped: number): BudgetState {
  if (frames < MIN_FRAMES) return state;
  const share = dropped / frames;
  if (share > DROP_STEP_DOWN) return { step: Math.min(MAX_RENDITION_STEP, state.step + 1), calm: 0 };
  if (share >= DROP_CALM) return { step: state.step, calm: 0 };
  if (state.calm + 1 >= CALM_WINDOWS && state.step > 0) return { step: state.step - 1, calm: 0 };
  return { step: state.step, calm: state.calm + 1 };
}

export const frameBudgetPart = definePart({
  name: 'frame budget',
  start() {
    const seen = new WeakMap<object, { frames: number; dropped: number }>();
    let state: BudgetState = { step: 0, calm: 0 };
    const timer = setInterval(() => {
      const counts = framesSince(videoPlayers(document), seen);
      const frames = counts.reduce((sum, c) => sum + c.frames, 0);
      const dropped = counts.reduce((sum, c) => sum + c.dropped, 0);
      state = nextBudget(state, frames, dropped);
      setRenditionStep(state.step);
    }, BUDGET_EVERY_MS);
    return {
      stop: () => {
        clearInterval(timer);
        setRenditionStep(0);
      },
    };
  },
});
