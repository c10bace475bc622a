/**
 * The pages that are screens, declared once: the web router mounts them at these paths, and
 * the server reads the same table to hint, in the HTML of such a page, what it will load
 * (src/http/web-hints.ts) — so a screen's code and stream start before its script asks.
 */
export interface ScreenPage {
  /** Absolute paths, in React Router's syntax. */
  paths: readonly string[];
  /** The page's module under web/ (its key in Vite's build manifest). */
  module: string;
  /** What the page registers as (its path's `sceneSlug` and `position` complete it). */
  kind: 'wall' | 'kiosk';
}

export const SCREEN_PAGES = {
  /** `/` follows the default scene, `/scenes/<slug>` that scene; `/pair` is `/` asking to be a screen (issue 41). */
  viewer: { paths: ['/', '/scenes/:sceneSlug', '/pair'], module: 'features/viewer/SceneViewer.tsx', kind: 'wall' },
  /** One position (1–5) of a scene, or of the default scene. */
  kiosk: { paths: ['/scenes/:sceneSlug/:position', '/streams/:position'], module: 'features/kiosk/KioskScreen.tsx', kind: 'kiosk' },
  /** The Live Wall (follows the default scene unless its viewer picks another). */
  wall: { paths: ['/app'], module: 'features/wall/LiveWall.tsx', kind: 'wall' },
} as const satisfies Record<string, ScreenPage>;

export type ScreenPageName = keyof typeof SCREEN_PAGES;

/** The id of the <script type="application/json"> a screen page's HTML carries its first state in. */
export const SCREEN_STATE_ELEMENT = 'nw-screen-state';

/**
 * A screen's device id, mirrored from its localStorage into a cookie, so the server knows which
 * screen asks for a page (what it shows may depend on it: its group, its own scene).
 */
export const SCREEN_DEVICE_COOKIE = 'nw_device';
