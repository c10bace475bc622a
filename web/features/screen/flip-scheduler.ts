/**
 * Shows a waiting state in the animation frame of its instant, so walls that agree on the
 * server's time flip on the same frame: a timer wakes a few frames early, then each frame asks
 * "is this the frame of the instant?" and, in the first that is, renders the change
 * synchronously (flushSync), before that frame is painted. The incoming players have been
 * loading out of sight since the push arrived, so the flip itself only changes classes.
 *
 * A hidden tab gets no animation frames: a timer just after the instant flips it anyway.
 * Every flip is announced as a `nw:flip` event on window ({version, at, frameTime}) — what the
 * benchmark and the tests read, and a hook for anyone debugging a venue's screens.
 */
import { flushSync } from 'react-dom';
import { store } from '../../lib/store.ts';
import { flipAtom, waitingStateAtom } from './atoms.ts';

export interface FlipDetail {
  version: number;
  /** The server instant the change asked for. */
  at: number;
  /** The animation frame's time (performance.now() clock) in which it was rendered. */
  frameTime: number;
}

const FALLBACK_AFTER_MS = 100;
/**
 * A frame is the flip's when it begins at most this long before the instant: half a 60 Hz
 * frame, the same constant on every screen — screens driven by one display clock then pick the
 * same frame whatever frame rate each has measured lately.
 */
const HALF_FRAME_MS = 8;
/** The animation-frame loop starts this long before the instant (timers are coarse, frames are not). */
const WAKE_EARLY_MS = 100;

export function startFlipScheduler(): () => void {
  let wake: ReturnType<typeof setTimeout> | undefined;
  let fallback: ReturnType<typeof setTimeout> | undefined;
  let frame: number | undefined;

  const cancel = () => {
    clearTimeout(wake);
    clearTimeout(fallback);
    if (frame !== undefined) cancelAnimationFrame(frame);
    wake = fallback = frame = undefined;
  };

  const commit = (frameTime: number) => {
    const waiting = store.get(waitingStateAtom);
    if (!waiting) return;
    cancel();
    flushSync(() => store.set(flipAtom));
    const detail: FlipDetail = { version: waiting.state.version, at: waiting.at, frameTime };
    window.dispatchEvent(new CustomEvent('nw:flip', { detail }));
  };

  const schedule = () => {
    cancel();
    const waiting = store.get(waitingStateAtom);
    if (!waiting) return;
    const { localAt } = waiting;
    const onFrame = (time: number) => {
      if (time >= localAt - HALF_FRAME_MS) commit(time);
      else frame = requestAnimationFrame(onFrame);
    };
    wake = setTimeout(() => (frame = requestAnimationFrame(onFrame)), Math.max(0, localAt - performance.now() - WAKE_EARLY_MS));
    fallback = setTimeout(() => commit(performance.now()), Math.max(0, localAt - performance.now()) + FALLBACK_AFTER_MS);
  };

  const unsubscribe = store.sub(waitingStateAtom, schedule);
  schedule();
  return () => {
    unsubscribe();
    cancel();
  };
}
