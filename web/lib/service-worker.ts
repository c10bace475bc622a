/**
 * Registers the screens' service worker (web/sw/sw.ts) — in a built app only, and after the page's
 * first picture: its precache downloads the screen pages' code once more, and a cold screen's
 * first frame (issue 30) comes first, INSTALL_AFTER_PICTURE_MS after it. A page with no picture
 * to wait for (the console, a screen with nothing to play) registers after INSTALL_AFTER_MS. Says whether this page could start
 * without its server (offlineStartAtom: the Screens tab shows it).
 */
import { atom } from 'jotai';
import {
  INSTALL_AFTER_MS,
  INSTALL_AFTER_PICTURE_MS,
  SERVICE_WORKER_PATH,
  SKIP_WAITING_AFTER_MS,
  SKIP_WAITING_MESSAGE,
  type OfflineStart,
} from '../../src/shared/offline.ts';
import { store } from './store.ts';

/** Whether a worker controls this page, one is on its way, or there can be none (not a secure origin, or no support). */
export const offlineStartAtom = atom<OfflineStart>('unavailable');

export function installServiceWorker(): void {
  if (!import.meta.env.PROD) return;
  // Browsers give service workers only to secure origins (https, localhost): on http://<LAN address> there is none.
  if (!window.isSecureContext || !('serviceWorker' in navigator)) return;
  const container = navigator.serviceWorker;
  const settle = () => store.set(offlineStartAtom, container.controller ? 'ready' : 'installing');
  settle();
  container.addEventListener('controllerchange', settle);

  let registered = false;
  const register = () => {
    if (registered) return;
    registered = true;
    document.removeEventListener('playing', afterPicture, true);
    clearTimeout(fallback);
    container
      .register(SERVICE_WORKER_PATH, { scope: '/' })
      .then((registration) => {
        settle();
        urgeWaiting(registration);
        // Registering again changes nothing for a known worker: this page came from the server
        // (it may be a new build's), so the worker is checked now — a deploy's worker installs and
        // takes over within seconds, before the server might be away again (issue 41).
        if (container.controller) void registration.update().catch(() => undefined);
      })
      .catch(() => store.set(offlineStartAtom, 'unavailable'));
  };
  // The first picture: a video that starts playing (the event does not bubble; capture sees every player's).
  const afterPicture = () => {
    document.removeEventListener('playing', afterPicture, true);
    clearTimeout(fallback);
    setTimeout(register, INSTALL_AFTER_PICTURE_MS);
  };
  document.addEventListener('playing', afterPicture, true);
  const fallback = setTimeout(register, INSTALL_AFTER_MS);
}

/**
 * A worker that installed but still waits SKIP_WAITING_AFTER_MS later is told to take over
 * (SKIP_WAITING_MESSAGE: Chromium can leave the takeover it asked for itself waiting), once.
 */
export function urgeWaiting(registration: ServiceWorkerRegistration): void {
  const told = new WeakSet<ServiceWorker>();
  const urgeSoon = () =>
    setTimeout(() => {
      const waiting = registration.waiting;
      if (!waiting || told.has(waiting)) return;
      told.add(waiting);
      waiting.postMessage(SKIP_WAITING_MESSAGE);
    }, SKIP_WAITING_AFTER_MS);
  registration.addEventListener('updatefound', () => {
    const installing = registration.installing;
    installing?.addEventListener('statechange', () => {
      if (installing.state === 'installed') urgeSoon();
    });
  });
  if (registration.waiting) urgeSoon();
}
