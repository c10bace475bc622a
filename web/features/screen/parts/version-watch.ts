/**
 * A wall or kiosk on an older build than its server's reloads itself (the rules:
 * web/lib/new-version.ts): at its next flip, or at its random moment of the window. Its address
 * names what it follows (and the Live Wall keeps its pick in sessionStorage), so it comes back
 * registered the same way, on the scene it had just flipped to.
 */
import type { ScreenState } from '../../../../src/shared/events.ts';
import { store } from '../../../lib/store.ts';
import { isFlip, isOutdated, reloadDeadline, shouldReloadNow, type LastReload } from '../../../lib/new-version.ts';
import { pageBuild } from '../../../lib/page-build.ts';
import { screenStateAtom } from '../atoms.ts';
import { definePart } from './part.ts';

const LAST_RELOAD_KEY = 'nw:new-version-reload';

function lastReload(): LastReload | null {
  try {
    const saved = JSON.parse(sessionStorage.getItem(LAST_RELOAD_KEY) ?? 'null') as LastReload | null;
    return saved && typeof saved.to === 'string' && typeof saved.at === 'number' ? saved : null;
  } catch {
    return null;
  }
}

/** A reload for a new build that did not reach it (the page came from the cache): the next may go ahead. */
export function forgetLastReload(): void {
  try {
    sessionStorage.removeItem(LAST_RELOAD_KEY);
  } catch {
    /* no storage: nothing was kept */
  }
}

export interface VersionWatch {
  /** The server's build, from a registration's answer. */
  serverBuild(build: string): void;
  /** What the screen shows now (a flip to something else is a moment to reload at). */
  shows(state: ScreenState | null): void;
  stop(): void;
}

/** Watches one screen session; `connected` says whether its socket is up right now. */
export function watchVersion(connected: () => boolean, reload: () => void = () => window.location.reload()): VersionWatch {
  const page = pageBuild();
  let server: string | null = null;
  let deadline: number | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let shown = store.get(screenStateAtom);
  let stopped = false;

  /** Reloads when the rules say so; whether it did. */
  const consider = (flipped: boolean): boolean => {
    const now = Date.now();
    if (stopped || server === null || !shouldReloadNow({ pageBuild: page, serverBuild: server, flipped, deadline, now, connected: connected(), lastReload: lastReload() })) return false;
    try {
      sessionStorage.setItem(LAST_RELOAD_KEY, JSON.stringify({ to: server, at: now } satisfies LastReload));
    } catch {
      /* no storage: the reload still goes ahead */
    }
    stop();
    reload();
    return true;
  };

  function stop() {
    stopped = true;
    clearTimeout(timer);
  }

  return {
    serverBuild(build) {
      server = build;
      // For tests and for anyone debugging a venue's screens, like nw:flip and nw:clock.
      window.dispatchEvent(new CustomEvent('nw:server-build', { detail: { page, server } }));
      if (!isOutdated(page, server)) {
        deadline = null;
        clearTimeout(timer);
        return;
      }
      if (deadline !== null) return; // the moment already drawn stays (a re-registration does not postpone it)
      deadline = reloadDeadline(Date.now());
      const check = () => {
        // Not yet possible (disconnected, or just tried for this build): look again in a while.
        if (!consider(false)) timer = setTimeout(check, 60_000);
      };
      timer = setTimeout(check, Math.max(0, deadline - Date.now()));
    },
    shows(next) {
      const flipped = isFlip(shown, next);
      shown = next;
      if (flipped) consider(true);
    },
    stop,
  };
}

export const versionWatchPart = definePart({
  name: 'version watch',
  follows: [screenStateAtom],
  start(session) {
    const watch = watchVersion(session.registered);
    return {
      changed: () => watch.shows(store.get(screenStateAtom)),
      registered: (answer) => answer.build && watch.serverBuild(answer.build),
      stop: watch.stop,
    };
  },
});
