/**
 * The browser's connection to the scene controller: the page's own origin, the one typed
 * socket contract (src/shared/events.ts) and the screen protocol every screen and the admin
 * console share (src/shared/screen-client.ts: register on every connect, retry while the
 * database is away, hand on pushes and commands).
 */
import { connectScreen, type ScreenClient, type ScreenClientOptions } from '../../src/shared/screen-client.ts';

export type { ScreenClient };

/** Opens this page's socket (same origin) and registers it as `options.registration`. */
export function openSocket(options: Omit<ScreenClientOptions, 'url'>): ScreenClient {
  return connectScreen(options);
}
