/**
 * When a screen shows what it is pushed: a change carries the server time at which every screen
 * shows it (`at`). Until then it waits on stage — the screen prepares it (its new players load
 * out of sight) — and at that instant it takes the place of what is shown. A change learned of
 * after its instant (a late push, a reconnect, a registration answer) is shown at once. A newer
 * change replaces one still waiting, so the version rule of screen-state.ts holds for both.
 * Pure: the browser store and the tests fold messages with the same rule.
 */
import type { ClockEstimate } from './clock.ts';
import { localTimeOf } from './clock.ts';
import type { SceneDto, SceneStreamDto } from './api/index.ts';
import type { KioskState, ScreenState, WallState } from './events.ts';
import { applyScreenMessage, type ScreenMessage, type ScreenTarget } from './screen-state.ts';

export interface ScreenStage {
  /** What the screen shows. */
  shown: ScreenState | null;
  /** What it will show at `localAt` (the screen's monotonic clock; `at` on the server's), being prepared meanwhile. */
  waiting: { state: ScreenState; at: number; localAt: number } | null;
}

export const EMPTY_STAGE: ScreenStage = { shown: null, waiting: null };

/** The server instant a message asks to be shown at, if it asks for one. */
export function instantOf(message: ScreenMessage): number | undefined {
  switch (message.type) {
    case 'state':
    case 'kiosk':
      return message.state.kind === 'wall' || message.state.kind === 'kiosk' ? message.state.at : undefined;
    case 'scene':
    case 'scene-deleted':
      return message.payload.at;
  }
}

/**
 * Folds one message in. `clock` is the screen's estimate of the server's clock (null before its
 * first burst: then everything is shown at once); `localNow` is its monotonic clock;
 * `minWaitMs` is how far ahead an instant must be to be worth waiting for (about a frame).
 */
export function receive(
  stage: ScreenStage,
  message: ScreenMessage,
  target: ScreenTarget,
  clock: Pick<ClockEstimate, 'offsetMs'> | null,
  localNow: number,
  minWaitMs = 8,
): ScreenStage {
  const base = stage.waiting?.state ?? stage.shown;
  const next = applyScreenMessage(base, message, target);
  if (next === base || next === null) return stage;
  const at = instantOf(message);
  const localAt = at !== undefined && clock ? localTimeOf(clock, at) : null;
  if (at !== undefined && localAt !== null && localAt - localNow >= minWaitMs) return { shown: stage.shown, waiting: { state: next, at, localAt } };
  return { shown: next, waiting: null };
}

/** The stage once its waiting state is shown (at its instant, or earlier when the screen must). */
export function flip(stage: ScreenStage): ScreenStage {
  return stage.waiting ? { shown: stage.waiting.state, waiting: null } : stage;
}

/** A wall's side drawn ahead of its flip: it has a scene to show. */
export type WallAhead = WallState & { scene: SceneDto };
/** A kiosk's: it has a stream to show. */
export type KioskAhead = KioskState & { stream: SceneStreamDto };

/**
 * What a screen page draws ahead of a waiting flip — one rule for every page: the waiting state,
 * when it has something to show (a wall its scene, a kiosk its stream) and no problem. A problem,
 * or a state with nothing to show, is drawn when it comes.
 */
export function drawnAhead(waiting: ScreenState | null): WallAhead | KioskAhead | null {
  if (!waiting || (waiting.kind !== 'wall' && waiting.kind !== 'kiosk') || waiting.problem) return null;
  if (waiting.kind === 'wall') return waiting.scene ? (waiting as WallAhead) : null;
  return waiting.stream ? (waiting as KioskAhead) : null;
}
