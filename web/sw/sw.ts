/// <reference lib="webworker" />
/**
 * The screens' service worker (issue 34): a wall or kiosk that starts while its server cannot be
 * reached shows its last scene instead of the browser's error page.
 *
 * - Precaches the screen pages' shell (their code, styles, fonts and icons, and the bare page;
 *   vite.config.ts lists it from the build's manifest), cleaned up build by build.
 * - A screen page (src/shared/screen-paths.ts) is asked of the network first — the page is built
 *   per request, with the state it will show — and answered from the cached shell when no answer
 *   comes within SCREEN_PAGE_TIMEOUT_MS; the page then shows its last state from the browser's
 *   storage (web/features/screen/last-state.ts) and connects by itself when the server is back.
 * - Every other page (the console, public pages) is the network's only; without one, a page that
 *   says plainly that the server cannot be reached (web/public/offline.html), never a stale console.
 * - Nothing else is touched: the API, Socket.IO and the cameras' own media go to the network.
 *
 * A new build is a new worker: it takes over at once (skipWaiting, clients.claim — and again when
 * a page finds it waiting) and drops the old precache, so once the server answers no screen stays
 * on an old build. A page that loaded
 * from the server asks for the worker again at once (web/lib/service-worker.ts), so a deploy's
 * worker installs within seconds instead of whenever the browser next checks.
 */
import { clientsClaim } from 'workbox-core';
import * as navigationPreload from 'workbox-navigation-preload';
import { cleanupOutdatedCaches, matchPrecache, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { matchScreenPath } from '../../src/shared/screen-paths.ts';
import { OFFLINE_PAGE, SCREEN_PAGE_TIMEOUT_MS, SHELL_PAGE, SKIP_WAITING_MESSAGE } from '../../src/shared/offline.ts';

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: (string | { url: string; revision: string | null })[] };

/**
 * What never passes through the worker (Chromium's static routing, 123+): the API, the hub's
 * socket and every other origin's requests — the cameras' HLS playlists and segments — go
 * straight to the network. A worker that is never handed a long-lived request is never busy
 * when the next build's worker wants to take over (issue 41: a deploy's worker was left waiting),
 * and a screen's media do not wake it several times a second. Where the API is missing (other
 * browsers), the fetch handler leaves those requests alone as before.
 */
type RouterRule = { condition: Record<string, unknown>; source: 'network' };
const NETWORK_ONLY: RouterRule[][] = [
  [
    { condition: { urlPattern: { pathname: '/api/*' } }, source: 'network' },
    { condition: { urlPattern: { pathname: '/socket.io/*' } }, source: 'network' },
  ],
  // Apart: a browser without `not` refuses this call, not the one above.
  [{ condition: { not: { urlPattern: { hostname: self.location.hostname, port: self.location.port } } }, source: 'network' }],
];

self.skipWaiting();
self.addEventListener('install', (event) => {
  // Again once installed (the flag set while the script first runs is not kept by every browser).
  void self.skipWaiting();
  const addRoutes = (event as ExtendableEvent & { addRoutes?: (rules: RouterRule[]) => Promise<void> }).addRoutes;
  if (addRoutes) event.waitUntil(Promise.all(NETWORK_ONLY.map((rules) => addRoutes.call(event, rules).catch(() => undefined))));
});
// A page that finds this worker still waiting says so (src/shared/offline.ts, SKIP_WAITING_MESSAGE): it asks again to take over.
self.addEventListener('message', (event) => {
  if (event.data === SKIP_WAITING_MESSAGE) void self.skipWaiting();
});
clientsClaim();
// The page's request starts while the worker boots, not after: a screen's start is not slowed by it.
navigationPreload.enable();
cleanupOutdatedCaches();
// Only the files themselves: by default Workbox also answers `/` with the cached index.html,
// which would start every wall at `/` from the old shell, without the server's page.
precacheAndRoute(self.__WB_MANIFEST, { directoryIndex: null, cleanURLs: false });

/** The network's answer (the navigation preload's, when the browser made one). */
async function fromNetwork(event: ExtendableEvent | undefined, request: Request): Promise<Response> {
  const preloaded = (await (event as FetchEvent | undefined)?.preloadResponse) as Response | undefined;
  return preloaded ?? fetch(request);
}

/** The network's answer, or a failure after `ms` (a server that accepts but never answers is as good as gone). */
function within<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('no answer in time')), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

async function fromCache(page: string): Promise<Response> {
  return (await matchPrecache(page)) ?? Response.error();
}

registerRoute(
  new NavigationRoute(
    async ({ request, url, event }) => {
      const screen = matchScreenPath(url.pathname) !== null;
      try {
        const network = fromNetwork(event, request);
        return screen ? await within(network, SCREEN_PAGE_TIMEOUT_MS) : await network;
      } catch {
        return fromCache(screen ? SHELL_PAGE : OFFLINE_PAGE);
      }
    },
    // The API's own pages (its reference) and the hub are never pages of the app.
    { denylist: [/^\/api(\/|$)/, /^\/socket\.io\//] },
  ),
);
