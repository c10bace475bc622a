/**
 * Every part a wall or kiosk runs beside its session's core (part.ts says what a part is), in the
 * order they start. Adding one is a file in this folder and a line here.
 */
import { clockPart } from './clock.ts';
import { commandsPart } from './commands.ts';
import { droppedFramesPart } from './dropped-frames.ts';
import { flipReportPart } from './flip-report.ts';
import { frameBudgetPart } from './frame-budget.ts';
import { healthPart } from './health.ts';
import { lastStatePart } from './last-state.ts';
import { offlineStartPart } from './offline-start.ts';
import type { AnyScreenPart } from './part.ts';
import { playsPart } from './plays.ts';
import { resyncPart } from './resync.ts';
import { versionWatchPart } from './version-watch.ts';
import { wakeLockPart } from './wake-lock.ts';

export const SCREEN_PARTS: readonly AnyScreenPart[] = [
  healthPart,
  clockPart,
  flipReportPart,
  offlineStartPart,
  droppedFramesPart,
  frameBudgetPart,
  playsPart,
  lastStatePart,
  versionWatchPart,
  wakeLockPart,
  commandsPart,
  resyncPart,
];
