/**
 * Which screen page a path is, by the table in screen-pages.ts: the server reads it to hint a
 * screen page's HTML (src/http/web-hints.ts), the service worker to know which pages may start
 * from its cached shell when the server cannot be reached (web/sw.ts).
 */
import { match } from 'path-to-regexp';
import { SCREEN_PAGES, type ScreenPage } from './screen-pages.ts';

export type ScreenPathParams = {
  sceneSlug?: string;
  position?: string;
};

const matchers = Object.values(SCREEN_PAGES as Record<string, ScreenPage>).flatMap((page) =>
  page.paths.map((pattern) => ({ page, test: match<ScreenPathParams>(pattern, { decode: decodeURIComponent }) })),
);

/** The screen page at `pathname` and its path's parameters; null for any other page (or a malformed escape). */
export function matchScreenPath(pathname: string): { page: ScreenPage; params: ScreenPathParams } | null {
  for (const { page, test } of matchers) {
    let found: ReturnType<typeof test>;
    try {
      found = test(pathname);
    } catch {
      return null;
    }
    if (found) return { page, params: found.params };
  }
  return null;
}
