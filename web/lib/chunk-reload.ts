/**
 * A page whose code chunk fails to load — usually one from before a deploy, whose files the new
 * build replaced — reloads once to get the new build's, instead of showing the router's error.
 * Once: a tab that reloaded for this lately (sessionStorage) lets the error page show, so a
 * broken deploy does not reload in a loop. It reloads only once the server answers again (a
 * reload that cannot load leaves a browser error page on an unattended screen).
 */
import { mayReloadForChunk } from './new-version.ts';

const LAST_KEY = 'nw:chunk-reload';

let pending = false;

/** A reload for a failed chunk is under way (the error page shows a loading screen meanwhile). */
export function chunkReloadPending(): boolean {
  return pending;
}

function lastAt(): number | null {
  try {
    const value = Number(sessionStorage.getItem(LAST_KEY));
    return Number.isFinite(value) && value > 0 ? value : null;
  } catch {
    return null;
  }
}

/** Reloads as soon as the server answers (any HTTP answer), trying again with backoff. */
async function reloadWhenReachable(delayMs = 1_000): Promise<void> {
  try {
    await fetch(window.location.href, { method: 'HEAD', cache: 'no-store' });
    window.location.reload();
  } catch {
    setTimeout(() => void reloadWhenReachable(Math.min(delayMs * 2, 30_000)), delayMs);
  }
}

export function installChunkReload(): void {
  window.addEventListener('vite:preloadError', (event) => {
    if (pending) return event.preventDefault();
    const now = Date.now();
    if (!mayReloadForChunk(lastAt(), now)) return; // the error goes on to the router's error page
    try {
      sessionStorage.setItem(LAST_KEY, String(now));
    } catch {
      return; // without storage there is no guard against a loop: show the error
    }
    pending = true;
    event.preventDefault();
    void reloadWhenReachable();
  });
}
