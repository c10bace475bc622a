/**
 * A screen's last state, kept in the browser's storage so it can start without its server
 * (issue 34): a screen page started from the service worker's cached shell (web/sw/sw.ts) has no
 * state in its HTML, and shows this one until its registration is answered.
 *
 * One entry per screen address (page and what it follows), at most MAX_KEPT, the oldest dropped.
 */
import type { ScreenState } from '../../../src/shared/events.ts';

const PREFIX = 'nw:last-state:';
/** Screens an installed browser keeps a state for (a kiosk tablet moved between positions, a wall between scenes). */
const MAX_KEPT = 8;

interface Kept {
  savedAt: number;
  state: ScreenState;
}

/** Keeps what a screen at `key` shows (walls and kiosks with a scene; a problem is not worth starting from). */
export function keepLastState(key: string, state: ScreenState | null): void {
  if (!state || (state.kind !== 'wall' && state.kind !== 'kiosk') || state.scene === null) return;
  try {
    localStorage.setItem(PREFIX + key, JSON.stringify({ savedAt: Date.now(), state } satisfies Kept));
    const kept = Array.from({ length: localStorage.length }, (_, i) => localStorage.key(i)).filter((k): k is string => k?.startsWith(PREFIX) ?? false);
    if (kept.length > MAX_KEPT) {
      const byAge = kept.map((k) => [k, (JSON.parse(localStorage.getItem(k) ?? '{}') as Partial<Kept>).savedAt ?? 0] as const).sort((a, b) => a[1] - b[1]);
      for (const [k] of byAge.slice(0, kept.length - MAX_KEPT)) localStorage.removeItem(k);
    }
  } catch {
    /* storage full or refused: the screen just starts without it next time */
  }
}

/**
 * The state last kept for `key`, as the lowest version there is: whatever the server answers
 * replaces it, and it waits for no instant (a push's `at` has passed long ago).
 */
export function lastState(key: string): ScreenState | null {
  try {
    const kept = JSON.parse(localStorage.getItem(PREFIX + key) ?? 'null') as Kept | null;
    if (!kept || typeof kept.state !== 'object' || (kept.state.kind !== 'wall' && kept.state.kind !== 'kiosk')) return null;
    const { at: _at, ...state } = kept.state;
    return { ...state, version: -1 };
  } catch {
    return null;
  }
}
