/**
 * What a screen page will need, said in its HTML so the browser starts it at once: the page's
 * own chunks and styles (found in Vite's build manifest), the state the screen will be
 * answered with when it registers (so its players mount on the first render, not after the
 * socket's handshake), and for the streams it is about to show, hls.js, each HLS playlist and
 * a connection to every stream's origin. Without them a cold kiosk fetches its page's code
 * only after the entry has run, hls.js only after its first state, and the playlist only
 * after hls.js: round trips in a row (bench/wall.ts measures the first frame). A kiosk whose
 * stream is a file or an embed is never hinted hls.js. The page depends on none of it: the
 * state is provisional (its registration's answer replaces it), a wrong hint costs a
 * download, and nothing is said when the state cannot be read at once.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import escapeHtml from 'escape-html';
import { Registration, type ScreenState } from '../shared/events.ts';
import { SCREEN_STATE_ELEMENT, type ScreenPage } from '../shared/screen-pages.ts';
import { matchScreenPath } from '../shared/screen-paths.ts';
import { candidateUrls, resolvePlayerSource } from '../shared/streams/player-source.ts';
import type { SceneStreamDto } from '../shared/api/index.ts';

/** One entry of Vite's build manifest (`build.manifest`). */
interface ManifestChunk {
  file: string;
  name?: string;
  imports?: string[];
  css?: string[];
}
type Manifest = Record<string, ManifestChunk>;

/**
 * The hls.js build the player imports (web/components/Player/hls-loader.ts): keyed by its module
 * when only the player imports it, or a shared chunk of that name once web/prestart.ts does too.
 */
const HLS_MODULE = /node_modules\/hls\.js\/dist\/hls\.light\.m?js$/;
const isHlsChunk = (key: string, chunk: ManifestChunk) => HLS_MODULE.test(key) || chunk.name === 'hls.light';
/** The app's entry, and the one that starts a kiosk's camera before it (web/prestart.ts). */
const APP_ENTRY = 'index.html';
const PRESTART_ENTRY = 'prestart.ts';
/** How long the page's answer may wait for the state (its scene is almost always cached in memory). */
const STATE_BUDGET_MS = 50;

export interface WebHintsOptions {
  distDir: string;
  /** What a screen registering this way is answered with (null before the hub is up). */
  stateFor: (registration: Registration) => Promise<ScreenState | null>;
}

/** Who is asking for a screen page: its device id (a cookie the page sets) and the group in its address. */
export interface ScreenCaller {
  device?: string | undefined;
  group?: string | undefined;
}

/** The screen page at `pathname` and what it will register as, or null for any other page. */
export function screenPageAt(pathname: string, caller: ScreenCaller = {}): { page: ScreenPage; registration: Registration | null } | null {
  const found = matchScreenPath(pathname);
  if (!found) return null; // not a screen page, or a malformed escape in the path: the app shows its own error
  const { page, params } = found;
  const { sceneSlug, position } = params;
  const parsed = Registration.safeParse({ kind: page.kind, ...(sceneSlug ? { sceneSlug } : {}), ...(position ? { position: Number(position) } : {}) });
  if (parsed.success) {
    // What the caller adds (its device, its group) only sharpens the guess: dropped when malformed.
    const sharper = Registration.safeParse({ ...parsed.data, ...(caller.device ? { device: caller.device } : {}), ...(caller.group ? { group: caller.group } : {}) });
    if (sharper.success) return { page, registration: sharper.data };
  }
  return { page, registration: parsed.success ? parsed.data : null };
}

/** The streams a screen in this state shows: a kiosk its position, a wall every tile. */
function shownStreams(state: ScreenState): SceneStreamDto[] {
  if (state.kind === 'kiosk') return state.stream ? [state.stream] : [];
  return state.kind === 'wall' ? state.streams : [];
}

/** JSON that is safe inside a <script> element (no `</script>`, no `<!--`). */
const scriptJson = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');

/**
 * `html`: the tags ('' when it is no screen page). `ahead`: they go before the app's own script
 * (a kiosk whose camera starts before the app: the browser asks in document order), else at the
 * end of the head, as the app's entry comes first.
 */
export interface PageHints {
  html: string;
  ahead: boolean;
}

export interface WebHints {
  /** Link tags for the head of `pathname`'s HTML ('' when it is no screen page). */
  forPath(pathname: string, host: string, caller?: ScreenCaller): Promise<PageHints>;
}

export function createWebHints({ distDir, stateFor }: WebHintsOptions): WebHints {
  const manifestFile = path.join(distDir, '.vite', 'manifest.json');
  let manifest: Manifest | null | undefined;
  const readManifest = (): Manifest | null => {
    // Read once: a build replaces the whole directory, and a new build means a restart.
    manifest ??= existsSync(manifestFile) ? (JSON.parse(readFileSync(manifestFile, 'utf8')) as Manifest) : null;
    return manifest;
  };

  /** Every file a module needs (its static imports, transitively), less what the app's entry loads (unless `all`). */
  const closure = (m: Manifest, key: string, all = false) => {
    const entryFiles = new Set<string>();
    const walk = (k: string, into: Set<string>, seen: Set<string>) => {
      if (seen.has(k) || !m[k]) return;
      seen.add(k);
      into.add(k);
      for (const i of m[k].imports ?? []) walk(i, into, seen);
    };
    if (!all) walk(APP_ENTRY, entryFiles, new Set());
    const own = new Set<string>();
    walk(key, own, new Set(entryFiles));
    return [...own].map((k) => m[k]!);
  };

  const moduleLinks = (chunks: ManifestChunk[], attributes = '') =>
    chunks.flatMap((c) => [
      ...(c.css ?? []).map((css) => `<link rel="stylesheet" crossorigin href="/${escapeHtml(css)}">`),
      `<link rel="modulepreload" crossorigin href="/${escapeHtml(c.file)}"${attributes}>`,
    ]);

  const withinBudget = <T>(work: Promise<T>): Promise<T | null> =>
    Promise.race([work.catch(() => null), new Promise<null>((done) => setTimeout(() => done(null), STATE_BUDGET_MS).unref())]);

  return {
    async forPath(pathname, host, caller = {}) {
      const m = readManifest();
      const screen = screenPageAt(pathname, caller);
      if (!m || !screen) return { html: '', ahead: false };
      // The camera's part: its state, hls.js, a kiosk's early start, the playlists, the origins.
      const links: string[] = [];
      let ahead = false;
      const state = screen.registration ? await withinBudget(stateFor(screen.registration)) : null;
      if (state) {
        links.push(`<script type="application/json" id="${SCREEN_STATE_ELEMENT}">${scriptJson(state)}</script>`);
        const sources = shownStreams(state).map((s) => resolvePlayerSource(candidateUrls(s)[0]!, host));
        const hlsKey = Object.keys(m).find((k) => isHlsChunk(k, m[k]!));
        if (hlsKey && sources.some((s) => s.kind === 'hls')) links.push(...moduleLinks([m[hlsKey]!], ' data-player="hls"')); // the player starts it at once (hls-loader.ts)
        // A kiosk's camera starts before the app (web/prestart.ts): async, so it runs as soon as
        // its few files are here, whatever the app's own are doing.
        const prestart = m[PRESTART_ENTRY];
        if (prestart && state.kind === 'kiosk' && sources[0]?.kind === 'hls') {
          links.push(...moduleLinks(closure(m, PRESTART_ENTRY, true).filter((c) => c !== prestart && c !== m[hlsKey ?? ''])));
          links.push(`<script type="module" async crossorigin src="/${escapeHtml(prestart.file)}"></script>`);
          ahead = true;
        }
        for (const source of sources) {
          if (source.kind === 'hls') links.push(`<link rel="preload" as="fetch" crossorigin href="${escapeHtml(source.src)}">`);
        }
        // hls.js fetches with CORS and no credentials (a connection of its own: `crossorigin`);
        // a <video src> and an iframe use the credentialed one.
        const preconnects = new Set(
          sources.flatMap((s) => {
            if (s.kind === 'link') return [];
            const origin = new URL(s.src).origin;
            if (new URL(origin).host === host) return [];
            return [`<link rel="preconnect" href="${escapeHtml(origin)}"${s.kind === 'hls' ? ' crossorigin' : ''}>`];
          }),
        );
        links.push(...preconnects);
      }
      // Ahead of the app, the camera's part first; else the page's code first, as the app's entry needs it next.
      const page = moduleLinks(closure(m, screen.page.module));
      return { html: (ahead ? [...links, ...page] : [...page, ...links]).join(''), ahead };
    },
  };
}
