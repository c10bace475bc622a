import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { compression } from 'vite-plugin-compression2';
import { BUILD_FILE, BUILD_META_NAME } from './src/shared/web-build.ts';

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
  ],
  build: {
    outDir: '../dist/web',
    emptyOutDir: true,
    sourcemap: true,
    manifest: true, // the server reads it to hint a screen route's chunks (src/http/web-hints.ts)
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
