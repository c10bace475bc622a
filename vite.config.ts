import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { compression } from 'vite-plugin-compression2';
import { VitePWA } from 'vite-plugin-pwa';
import { SCREEN_PAGES } from './src/shared/screen-pages.ts';
import { BUILD_FILE, BUILD_META_NAME } from './src/shared/web-build.ts';

const OUT_DIR = path.resolve(import.meta.dirname, 'dist/web');

/** One entry of Vite's build manifest. */
interface ManifestChunk {
  file: string;
  css?: string[];
  assets?: string[];
  imports?: string[];
  dynamicImports?: string[];
  isEntry?: boolean;
}

/**
 * The files a screen page can need without its server: the entry's static imports, and each
 * screen page's imports, static and dynamic (its players, hls.js), with their styles. The
 * console's code is left out: its pages are never started from the cache.
 */
function screenShellFiles(manifest: Record<string, ManifestChunk>): Set<string> {
  const files = new Set<string>();
  const seen = new Set<string>();
  const walk = (key: string, dynamic: boolean): void => {
    const chunk = manifest[key];
    // A screen's code that imports the entry needs what the entry loads, not every page it can route to.
    if (chunk?.isEntry && dynamic) return walk(key, false);
    if (!chunk || seen.has(`${dynamic}:${key}`)) return;
    seen.add(`${dynamic}:${key}`);
    files.add(chunk.file);
    for (const file of [...(chunk.css ?? []), ...(chunk.assets ?? [])]) files.add(file);
    for (const i of chunk.imports ?? []) walk(i, dynamic);
    if (dynamic) for (const i of chunk.dynamicImports ?? []) walk(i, true);
  };
  for (const [key, chunk] of Object.entries(manifest)) if (chunk.isEntry) walk(key, false);
  for (const page of Object.values(SCREEN_PAGES)) walk(page.module, true);
  return files;
}

/**
 * Gives every build an id, in its HTML (the page's own) and in dist/web/build.json (what the
 * server tells screens): a hash of the emitted file names, which Vite derives from their
 * contents — so rebuilding the same code (`npm start` builds every time) keeps the id, and no
 * screen reloads for nothing. None in dev: no id, no reloads.
 */
function buildId(): Plugin {
  let id: string | undefined;
  return {
    name: 'nature-wall:build-id',
    apply: 'build',
    transformIndexHtml: {
      order: 'post', // the bundle's files have their final names by now
      handler(_html, ctx) {
        const files = Object.keys(ctx.bundle ?? {})
          .filter((f) => !f.endsWith('.html') && !f.endsWith('.map'))
          .sort();
        id = createHash('sha256').update(files.join('\n')).digest('hex').slice(0, 16);
        return [{ tag: 'meta', attrs: { name: BUILD_META_NAME, content: id }, injectTo: 'head-prepend' }];
      },
    },
    writeBundle(options) {
      if (id && options.dir) writeFileSync(path.join(options.dir, BUILD_FILE), `${JSON.stringify({ id })}\n`);
    },
  };
}

/** The web app lives in web/; it is built into dist/web, which the Koa server serves. */
export default defineConfig({
  root: 'web',
  plugins: [
    react(),
    buildId(),
    // Every asset also as .br and .gz, made once here at the highest levels: the server sends
    // them as they are (src/http/web.ts) instead of compressing each file on every request.
    compression({ algorithms: ['brotliCompress', 'gzip'], include: /\.(js|mjs|css|svg|json|webmanifest|txt)$/, threshold: 512 }),
    // The screens' service worker (web/sw/sw.ts): registered by the page itself after its first
    // picture (web/lib/service-worker.ts); the web app manifest is our own (web/public).
    VitePWA({
      strategies: 'injectManifest',
      srcDir: 'sw',
      filename: 'sw.ts',
      injectRegister: false,
      manifest: false,
      injectManifest: {
        // The bare page, the offline page, fonts and icons, and the screen pages' code (not the console's).
        globPatterns: ['**/*.{html,js,css,woff2,svg,png}'],
        globIgnores: ['**/*.map', '.vite/**'],
        manifestTransforms: [
          async (entries) => {
            const shell = screenShellFiles(JSON.parse(readFileSync(path.join(OUT_DIR, '.vite/manifest.json'), 'utf8')) as Record<string, ManifestChunk>);
            // The build's code is kept when a screen can need it; public files (offline.js) always.
            const keep = entries.filter((e) => !e.url.startsWith('assets/') || !/\.(js|css)$/.test(e.url) || shell.has(e.url));
            return { manifest: keep, warnings: [] };
          },
        ],
      },
    }),
  ],
  build: {
    outDir: '../dist/web',
    emptyOutDir: true,
    sourcemap: true,
    manifest: true, // the server reads it to hint a screen route's chunks (src/http/web-hints.ts)
    rolldownOptions: {
      // The app, and a kiosk's camera started before it (web/prestart.ts: the server names it in a
      // kiosk's HTML; key `prestart.ts` in the manifest).
      input: { index: path.resolve(import.meta.dirname, 'web/index.html'), prestart: path.resolve(import.meta.dirname, 'web/prestart.ts') },
      // What the two entries share besides hls.js, in one file: left to itself, the bundler made a
      // chunk of each shared module, and a screen's page fetched three more files than before the
      // early camera — slower to start from the service worker's cache, without the server.
      output: { codeSplitting: { groups: [{ name: 'start-media', test: /web\/components\/Player\/(start-media|prestarted|capped-levels|hls-settings|hls-worker|hls-loader)\.ts|web\/features\/screen\/rendition-step\.ts|src\/shared\/(screen-pages|streams\/player-source)\.ts|vite\/preload-helper/ }] } },
    },
  },
  server: {
    port: 5173,
    proxy: {
      '/api': 'http://localhost:3000',
      '/healthz': 'http://localhost:3000',
      '/socket.io': { target: 'http://localhost:3000', ws: true },
    },
  },
});
