/**
 * Shows a waiting state in the animation frame of its instant, so walls that agree on the
 * server's time flip on the same frame: a timer wakes a few frames early, then each frame asks
 * "is this the frame nearest the instant?" and, in the first that is, renders the change
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

export function startFlipScheduler(): () => void {
  let frameMs = 1000 / 60;
  let lastFrame = 0;
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
      // The display's frame period, learned as frames go by (60 Hz until known).
      if (lastFrame && time - lastFrame > 4 && time - lastFrame < 50) frameMs = frameMs * 0.8 + (time - lastFrame) * 0.2;
      lastFrame = time;
      if (time >= localAt - frameMs / 2) commit(time);
      else frame = requestAnimationFrame(onFrame);
    };
    wake = setTimeout(() => (frame = requestAnimationFrame(onFrame)), Math.max(0, localAt - performance.now() - 3 * frameMs));
    fallback = setTimeout(() => commit(performance.now()), Math.max(0, localAt - performance.now()) + FALLBACK_AFTER_MS);
  };

  const unsubscribe = store.sub(waitingStateAtom, schedule);
  schedule();
  return () => {
    unsubscribe();
    cancel();
  };
}
