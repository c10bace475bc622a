/**
 * What a screen does while its server cannot be reached (issue 34), said once for the service
 * worker (web/sw/sw.ts), the screen pages (web/features/screen/last-state.ts) and the server.
 */

/** The worker's script, at the origin's root so its scope is the whole app. */
export const SERVICE_WORKER_PATH = '/sw.js';
/** The bare page a screen starts from when the server does not answer (the build's index.html). */
export const SHELL_PAGE = '/index.html';
/** What any other page shows without its server. */
export const OFFLINE_PAGE = '/offline.html';
/**
 * How long a screen page waits for the server's page before it starts from the cached shell: a
 * server that accepts the connection but does not answer (restarting, overloaded) is as good as gone.
 */
export const SCREEN_PAGE_TIMEOUT_MS = 4_000;
/** How long a screen waits after it starts before the worker installs, when no picture plays (the first picture comes first). */
export const INSTALL_AFTER_MS = 15_000;
/**
 * And after its first picture: the precache (about 1.4 MB) downloads when the screen has settled,
 * not while its other players are still starting (measured: installing at the first picture
 * slowed a load right after it from 279 to 350 ms to its first frame, bench:wall).
 */
export const INSTALL_AFTER_PICTURE_MS = 5_000;

/**
 * What a page tells a worker left waiting: take over now. The worker asks for it itself
 * (skipWaiting) as it installs, and Chromium then asks the outgoing worker to stop as soon as it is
 * idle; a request that reaches the outgoing worker in that instant starts it again, and the takeover
 * then waits for its idle timeout — never, while DevTools is attached (traced in
 * tests/e2e/offline.spec.ts: a console page loading as the deploy's worker installed left it
 * waiting). The waiting worker's next skipWaiting asks again; Chromium heeds only the first one a
 * waiting worker makes once installed, so a page sends it once, SKIP_WAITING_AFTER_MS after it finds
 * the worker waiting — past the instant of the race, with the outgoing worker running again.
 */
export const SKIP_WAITING_MESSAGE = 'nature-wall:skip-waiting';
export const SKIP_WAITING_AFTER_MS = 3_000;

/** Whether this screen can start without its server: a worker controls it, one is installing, or it has none (not a secure origin). */
export const OFFLINE_START_STATES = ['ready', 'installing', 'unavailable'] as const;
export type OfflineStart = (typeof OFFLINE_START_STATES)[number];
