/**
 * Shows a waiting state in the animation frame of its instant, so walls that agree on the
 * server's time present it together. Everything the flip needs is done before the instant: the
 * page renders both sides (Flip.tsx, staging.ts) — the incoming players load, laid out where
 * they will appear, out of sight. In the flip frame one attribute changes on <html>
 * (`data-side`, from "now" to "next"): no React render, no effect. A task posted from there runs
 * once that frame is rendered — the instant a visitor sees the new scene, as near as the page can
 * know it. React catches up CATCH_UP_AFTER_MS later (the leaving players pause then, and release
 * their decoders a little after): screens of a venue often share a machine, and one screen's
 * catch-up must not take the CPU another screen needs for its own flip frame. A push that comes
 * meanwhile settles the flip first (the scheduler's `settle`).
 *
 * A timer wakes a few frames early, then each frame asks "is this the frame of the instant?";
 * a hidden tab gets no animation frames, so a timer just after the instant flips it anyway.
 * Every flip is announced as a `nw:flip` event on window (FlipDetail) — what the benchmark,
 * the tests and the health report read.
 */
import { atom } from 'jotai';
import { flushSync } from 'react-dom';
import { renderCount } from '../../lib/render-count.ts';
import { store } from '../../lib/store.ts';
import { clockAtom, flipAtom, waitingStateAtom } from './atoms.ts';

export interface FlipDetail {
  version: number;
  /** The server instant the change asked for (ms since the epoch, server clock). */
  at: number;
  /** The flip frame's begin: its animation-frame time (performance.now() clock). */
  frameTime: number;
  /** When the flip frame's rendering had ended: a task posted from the flip ran (performance.now() clock). */
  renderedAt: number;
  /** The flip frame's own work: from the flip's change to the end of that frame's rendering (ms). */
  workMs: number;
  /** How late the rendered frame was on the server's clock (ms; negative: early); null without a clock estimate. */
  lateMs: number | null;
  /** Renders of tiles, cards and players, and effects they started, in the flip frame (none, by design). */
  frameRenders: number;
  frameEffects: number;
  /** The same while React caught up, a task later (the work moved out of the frame). */
  catchUpRenders: number;
}

/** The last flip this screen presented: what its health report tells the hub. */
export const lastFlipAtom = atom<FlipDetail | null>(null);

const FALLBACK_AFTER_MS = 100;
/**
 * A frame is the flip's when it begins at most this long before the instant: half a 60 Hz
 * frame, the same constant on every screen — screens driven by one display clock then pick the
 * same frame whatever frame rate each has measured lately.
 */
const HALF_FRAME_MS = 8;
/** The animation-frame loop starts this long before the instant (timers are coarse, frames are not). */
const WAKE_EARLY_MS = 100;
/**
 * How long after its flip frame a screen redraws with React and lets the leaving players go:
 * past the flip frames of the other screens on its machine (their clocks agree to a few ms).
 */
export const CATCH_UP_AFTER_MS = 150;

/** On <html>: which side of a waiting flip shows (flip.css) — "next" from the flip frame until React has caught up. */
export const SIDE_ATTRIBUTE = 'data-side';
const showSide = (side: 'now' | 'next') => document.documentElement.setAttribute(SIDE_ATTRIBUTE, side);

/** Periodic work keeps off this long before a flip's instant (a timer can run late by a task or two). */
const QUIET_BEFORE_MS = 250;

/**
 * Whether a flip is near: its instant within QUIET_BEFORE_MS, or shown and not yet caught up.
 * Periodic work a screen can put off (players' sync and stall checks) skips its turn then, so
 * the flip frame and the frames around it are not shared with it.
 */
export function flipIsNear(now = performance.now()): boolean {
  if (document.documentElement.getAttribute(SIDE_ATTRIBUTE) === 'next') return true;
  const waiting = store.get(waitingStateAtom);
  return waiting !== null && waiting.localAt - now < QUIET_BEFORE_MS;
}

/** ms until the waiting flip's instant on this page's clock (Infinity: none waits). */
export function msUntilFlip(now = performance.now()): number {
  const waiting = store.get(waitingStateAtom);
  return waiting === null ? Infinity : waiting.localAt - now;
}

interface TaskScheduler {
  postTask(task: () => void, options: { priority: 'user-blocking' }): Promise<unknown>;
}

/**
 * Runs `task` as a task of its own, after the rendering of the frame it was posted in — ahead of
 * tasks queued earlier where the browser has prioritised tasks (Chromium's scheduler.postTask),
 * so what ran before it is the frame and nothing after.
 */
function afterRendering(task: () => void): void {
  const scheduler = (globalThis as { scheduler?: Partial<TaskScheduler> }).scheduler;
  if (typeof scheduler?.postTask === 'function') {
    void scheduler.postTask(task, { priority: 'user-blocking' });
    return;
  }
  const channel = new MessageChannel();
  channel.port1.onmessage = () => {
    channel.port1.close();
    task();
  };
  channel.port2.postMessage(null);
}

export interface FlipScheduler {
  /**
   * Finishes a flip that has been shown but not redrawn yet, at once: called before a push is
   * folded into the store, so the push never meets a half-finished flip.
   */
  settle(): void;
  stop(): void;
}

/** Shows each waiting state at its instant while the session runs. */
export function startFlipScheduler(): FlipScheduler {
  /** The catch-up of a flip that has been shown but not yet redrawn, if any. */
  let pendingCatchUp: (() => void) | null = null;
  let stopped = false;
  let wake: ReturnType<typeof setTimeout> | undefined;
  let fallback: ReturnType<typeof setTimeout> | undefined;
  let frame: number | undefined;
  let flipping = false;

  const cancel = () => {
    clearTimeout(wake);
    clearTimeout(fallback);
    if (frame !== undefined) cancelAnimationFrame(frame);
    wake = fallback = frame = undefined;
  };

  const commit = (frameTime: number) => {
    const waiting = store.get(waitingStateAtom);
    if (!waiting || flipping) return;
    cancel();
    flipping = true;
    const began = performance.now();
    const counted = { ...renderCount };
    // The whole flip frame: the other side shows.
    showSide('next');
    afterRendering(() => {
      // Stopped since the frame began: stop() has put the shown side back; nothing is left to catch up.
      if (stopped) return;
      const renderedAt = performance.now();
      const frameRenders = renderCount.renders - counted.renders;
      const frameEffects = renderCount.effects - counted.effects;
      const clock = store.get(clockAtom);
      const catchUp = () => {
        clearTimeout(timer);
        pendingCatchUp = null;
        const before = renderCount.renders;
        // React catches up: one side drawn again, the leaving players unmounted (they pause, and
        // release their decoders a little later). Then the attribute goes back, in the same task.
        flushSync(() => store.set(flipAtom));
        showSide('now');
        flipping = false;
        const detail: FlipDetail = {
          version: waiting.state.version,
          at: waiting.at,
          frameTime,
          renderedAt,
          workMs: renderedAt - began,
          lateMs: clock ? renderedAt + clock.offsetMs - waiting.at : null,
          frameRenders,
          frameEffects,
          catchUpRenders: renderCount.renders - before,
        };
        store.set(lastFlipAtom, detail);
        window.dispatchEvent(new CustomEvent('nw:flip', { detail }));
        // A change that arrived meanwhile waits for its own instant.
        if (!stopped) schedule();
      };
      const timer = setTimeout(catchUp, CATCH_UP_AFTER_MS);
      pendingCatchUp = catchUp;
    });
  };

  function schedule(): void {
    if (flipping) return;
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
  }

  const settle = () => pendingCatchUp?.();
  showSide('now');
  const unsubscribe = store.sub(waitingStateAtom, schedule);
  schedule();
  return {
    settle,
    stop() {
      unsubscribe();
      cancel();
      settle();
      stopped = true;
      showSide('now');
    },
  };
}
