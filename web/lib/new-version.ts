/**
 * When a page on an older build of the web app reloads itself. The server says which build it
 * serves when a screen registers (src/shared/web-build.ts); a wall or kiosk on another build
 * reloads at a moment nobody notices — its next flip, when what it shows changes anyway — or,
 * if no flip comes, at a random moment of a window of a few minutes (screens learn of a deploy
 * together; spread, they do not all come back at once). Only while its server answers (a reload
 * that cannot load leaves a browser error page on an unattended screen), and not again and
 * again for a build the last reload did not reach (a cache, a node still on the old build).
 * The rules are pure; version-watch.ts and the admin console apply them (and chunk-reload.ts
 * its own: a page whose code chunk failed to load).
 */
import type { ScreenState } from '../../src/shared/events.ts';

/** How long after learning of a new build a screen that sees no flip reloads, at the latest. */
export const RELOAD_WINDOW_MS = 5 * 60_000;
/** A reload that did not reach the build it was for is not tried again for that build this soon. */
export const RETRY_RELOAD_AFTER_MS = 30 * 60_000;

/** Whether the server serves another build than this page's (never when either is unknown). */
export function isOutdated(page: string | null, server: string | null): boolean {
  return page !== null && server !== null && page !== server;
}

/** The last reload this tab made for a new build (kept in sessionStorage across it). */
export interface LastReload {
  to: string;
  at: number;
}

export interface ReloadFacts {
  pageBuild: string | null;
  /** From the server's last registration answer. */
  serverBuild: string | null;
  /** The screen has just flipped: what it shows changed. */
  flipped: boolean;
  /** When it reloads if no flip comes first (reloadDeadline), null before it knows it is outdated. */
  deadline: number | null;
  now: number;
  /** Its socket is connected: the server answered just now, so the reload will load. */
  connected: boolean;
  lastReload: LastReload | null;
}

/** Should this screen reload now? */
export function shouldReloadNow(f: ReloadFacts): boolean {
  if (!isOutdated(f.pageBuild, f.serverBuild) || !f.connected) return false;
  if (f.lastReload && f.lastReload.to === f.serverBuild && f.now - f.lastReload.at < RETRY_RELOAD_AFTER_MS) return false;
  return f.flipped || (f.deadline !== null && f.now >= f.deadline);
}

/** The random moment of the window at which a screen that learned of a new build at `learnedAt` reloads without a flip. */
export function reloadDeadline(learnedAt: number, windowMs = RELOAD_WINDOW_MS, random: () => number = Math.random): number {
  return learnedAt + random() * windowMs;
}

/** What a screen state puts on screen: its scene and its streams, in order (not its version or instant). */
function shownKey(state: ScreenState): string {
  if (state.kind === 'wall') return JSON.stringify(['wall', state.scene?.id ?? null, state.streams.map((s) => s.id)]);
  if (state.kind === 'kiosk') return JSON.stringify(['kiosk', state.scene?.id ?? null, state.stream?.id ?? null]);
  return state.kind;
}

/**
 * Whether going from `before` to `after` is a flip: the screen was showing something and now
 * shows something else. Its first state, or a re-sent one that changes nothing visible, is not.
 */
export function isFlip(before: ScreenState | null, after: ScreenState | null): boolean {
  return before !== null && after !== null && shownKey(before) !== shownKey(after);
}

/** A second failing chunk this soon after a reload for one shows the error page instead (chunk-reload.ts). */
export const CHUNK_RELOAD_COOLDOWN_MS = 5 * 60_000;

/** May this tab reload for a failed chunk, given when it last did (null: never)? */
export function mayReloadForChunk(lastAt: number | null, now: number, cooldownMs = CHUNK_RELOAD_COOLDOWN_MS): boolean {
  return lastAt === null || now - lastAt >= cooldownMs || now < lastAt;
}
