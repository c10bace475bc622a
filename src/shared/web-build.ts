/**
 * Which build of the web app a page is and a server serves, named once for the three sides:
 * the Vite build writes the id into the page's HTML (a meta tag) and beside it (a file), the
 * server reads the file at start and tells every screen when it registers, and a page that is
 * older than its server reloads itself (web/features/screen/parts/version-watch.ts).
 */

/** `<meta name="nw-build" content="<id>">` in every built page's head. */
export const BUILD_META_NAME = 'nw-build';

/** `{"id": "<id>"}` in the root of the built web app (dist/web/build.json). */
export const BUILD_FILE = 'build.json';
