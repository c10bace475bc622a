/**
 * Serves the built web app: hashed assets cached for a year, sent as the build compressed them
 * (.br or .gz beside each file, chosen by Accept-Encoding; never compressed per request),
 * index.html for every client route (SPA fallback) and never cached, so a deploy reaches every
 * wall on its next load.
 */
import { existsSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Middleware } from 'koa';
import serve from 'koa-static';
import { screenPageAt, type WebHints } from './web-hints.ts';
import { SCREEN_DEVICE_COOKIE } from '../shared/screen-pages.ts';
import { BUILD_FILE } from '../shared/web-build.ts';

/**
 * The id of the web build in `distDir` (its build.json, written by vite.config.ts), read once at
 * start: screens are told it when they register, and one on an older build reloads itself.
 * Undefined without a build (or one from before build ids): then no screen is ever told to.
 */
export function readBuildId(distDir: string): string | undefined {
  try {
    const { id } = JSON.parse(readFileSync(path.join(distDir, BUILD_FILE), 'utf8')) as { id?: unknown };
    return typeof id === 'string' && id !== '' ? id : undefined;
  } catch {
    return undefined;
  }
}

/** `hints`: a screen page's HTML names what the page will load (web-hints.ts). */
export function webApp(distDir: string, hints?: WebHints): Middleware {
  const indexFile = path.join(distDir, 'index.html');
  const assets = serve(distDir, {
    index: false,
    // The build's own .br/.gz beside each file (vite.config.ts); koa-compress leaves an encoded answer alone.
    gzip: true,
    brotli: true,
    setHeaders: (res, filePath) => {
      const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
      res.setHeader('Cache-Control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
      res.setHeader('Vary', 'Accept-Encoding');
    },
  });
  let index: Promise<string> | undefined;
  const manifestFile = path.join(distDir, MANIFEST_PATH);
  let manifest: Promise<Record<string, unknown>> | undefined;

  return async (ctx, next) => {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next();
    if (ctx.path.startsWith('/api/') || ctx.path === '/api' || ctx.path.startsWith('/socket.io/')) return next();
    const start = typeof ctx.query.start === 'string' ? ctx.query.start : undefined;
    if (ctx.path === MANIFEST_PATH && start && isScreenAddress(start) && existsSync(manifestFile)) {
      // The manifest of one screen's address: installed from /streams/3?group=lobby, the app opens there.
      manifest ??= readFile(manifestFile, 'utf8').then((text) => JSON.parse(text) as Record<string, unknown>);
      ctx.type = 'application/manifest+json';
      ctx.set('Cache-Control', 'no-cache');
      ctx.body = { ...(await manifest), id: start, start_url: start };
      return;
    }
    await assets(ctx, async () => {});
    if (ctx.body !== undefined && ctx.body !== null) return;
    // Unknown files (a path with an extension) are 404s, not the app.
    if (path.extname(ctx.path) !== '') return next();
    if (!existsSync(indexFile)) {
      ctx.type = 'text/plain';
      ctx.body = 'Nature Wall is running, but the web app is not built. Run `npm run build`.';
      return;
    }
    index ??= readFile(indexFile, 'utf8');
    ctx.type = 'text/html';
    ctx.set('Cache-Control', 'no-cache');
    const html = await index;
    const group = typeof ctx.query.group === 'string' ? ctx.query.group : undefined;
    const links = hints ? await hints.forPath(ctx.path, ctx.host, { device: ctx.cookies.get(SCREEN_DEVICE_COOKIE), group }) : { html: '', ahead: false };
    const page = screenPageAt(ctx.path) ? html.replace(`href="${MANIFEST_PATH}"`, `href="${MANIFEST_PATH}?start=${encodeURIComponent(ctx.url)}"`) : html;
    const at = links.ahead && page.includes('<script') ? '<script' : '</head>';
    ctx.body = links.html ? page.replace(at, `${links.html}${at}`) : page;
  };
}

/** The web app manifest (web/public): a tablet installs a screen as a full-screen app. */
const MANIFEST_PATH = '/manifest.webmanifest';

/** A same-origin address (path and query) of a screen page. */
function isScreenAddress(address: string): boolean {
  if (!address.startsWith('/') || address.startsWith('//') || address.length > 512) return false;
  try {
    return screenPageAt(new URL(address, 'http://screen').pathname) !== null;
  } catch {
    return false;
  }
}
