/**
 * Serves the built web app: hashed assets cached for a year, index.html for every client
 * route (SPA fallback) and never cached, so a deploy reaches every wall on its next load.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Middleware } from 'koa';
import serve from 'koa-static';
import type { WebHints } from './web-hints.ts';
import { SCREEN_DEVICE_COOKIE } from '../shared/screen-pages.ts';

/** `hints`: a screen page's HTML names what the page will load (web-hints.ts). */
export function webApp(distDir: string, hints?: WebHints): Middleware {
  const indexFile = path.join(distDir, 'index.html');
  const assets = serve(distDir, {
    index: false,
    gzip: false,
    brotli: false,
    setHeaders: (res, filePath) => {
      const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
      res.setHeader('Cache-Control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
  let index: Promise<string> | undefined;

  return async (ctx, next) => {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next();
    if (ctx.path.startsWith('/api/') || ctx.path === '/api' || ctx.path.startsWith('/socket.io/')) return next();
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
    const links = hints ? await hints.forPath(ctx.path, ctx.host, { device: ctx.cookies.get(SCREEN_DEVICE_COOKIE), group }) : '';
    ctx.body = links ? html.replace('</head>', `${links}</head>`) : html;
  };
}
