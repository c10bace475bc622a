/**
 * The API reference: GET /api/openapi.json (generated from the router, see http/openapi.ts)
 * and GET /api/docs, Swagger UI served from our own origin (the swagger-ui-dist package, no
 * CDN) with its start-up in a file of ours, so the strict script policy holds.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import Router from '@koa/router';
import { z } from 'zod';
import type { AppState } from './context.ts';
import { buildOpenApi } from './openapi.ts';
import { mountRaw } from './route.ts';
import { endpoint } from '../shared/api/contract.ts';

const swaggerDir = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
const version = (JSON.parse(await readFile(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Nature Wall API</title>
<link rel="icon" href="/favicon.svg">
<link rel="stylesheet" href="/api/docs/swagger-ui.css">
</head>
<body>
<div id="swagger-ui"></div>
<script src="/api/docs/swagger-ui-bundle.js"></script>
<script src="/api/docs/init.js"></script>
</body>
</html>
`;

const INIT = `window.addEventListener('load', function () {
  window.ui = SwaggerUIBundle({ url: '/api/openapi.json', dom_id: '#swagger-ui', deepLinking: true, tryItOutEnabled: false });
});
`;

const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'application/javascript; charset=utf-8',
};

const page = (path: string, summary: string, produces: string) => endpoint({ method: 'GET', path, summary, access: 'public', responses: { 200: z.string() }, produces, noDatabase: true });

export const docsEndpoints = {
  openapi: endpoint({ method: 'GET', path: '/openapi.json', summary: 'This document', access: 'public', responses: { 200: z.record(z.string(), z.unknown()) }, noDatabase: true }),
  docs: page('/docs', 'The API reference (Swagger UI)', 'text/html'),
  init: page('/docs/init.js', 'The reference page\'s start-up script', 'application/javascript'),
};
const ASSET_ENDPOINTS = Object.fromEntries(Object.entries(ASSETS).map(([file, type]) => [file, page(`/docs/${file}`, `Swagger UI's ${file}`, type.split(';')[0]!)]));

export function docsRouter(api: () => Router<AppState>): Router<AppState> {
  const router = new Router<AppState>();
  let document: Record<string, unknown> | undefined;

  mountRaw(router, docsEndpoints.openapi, (ctx) => {
    document ??= buildOpenApi(api(), { version });
    ctx.body = document;
  });

  mountRaw(router, docsEndpoints.docs, (ctx) => {
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = PAGE;
  });

  mountRaw(router, docsEndpoints.init, (ctx) => {
    ctx.type = 'application/javascript; charset=utf-8';
    ctx.body = INIT;
  });

  for (const [file, type] of Object.entries(ASSETS)) {
    mountRaw(router, ASSET_ENDPOINTS[file]!, async (ctx) => {
      ctx.type = type;
      ctx.set('Cache-Control', 'public, max-age=86400');
      ctx.body = await readFile(path.join(swaggerDir, file));
    });
  }

  return router;
}
