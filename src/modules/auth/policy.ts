/**
 * Who may call what — the one table. Every route of the API router must appear here: the
 * server refuses to start otherwise (see assertPolicyCovers), so a new route cannot be
 * forgotten. Public: what screens, visitors and raters need. Admin: everything else.
 */
import type Router from '@koa/router';

export type Access = 'public' | 'admin';

export const POLICY: Record<string, Access> = {
  'GET /api/openapi.json': 'public',
  'GET /api/docs': 'public',
  'GET /api/docs/init.js': 'public',
  'GET /api/docs/swagger-ui.css': 'public',
  'GET /api/docs/swagger-ui-bundle.js': 'public',

  'GET /api/streams': 'public', // anonymous callers see active streams only
  'GET /api/streams/:id': 'public',
  'POST /api/streams': 'admin',
  'PUT /api/streams': 'admin',
  'DELETE /api/streams': 'admin',

  'GET /api/scenes': 'public', // anonymous callers see active scenes only
  'GET /api/scenes/:idOrSlug': 'public',
  'GET /api/scenes/:idOrSlug/streams': 'public',
  'POST /api/scenes': 'admin',
  'PUT /api/scenes': 'admin',
  'DELETE /api/scenes': 'admin',

  'GET /api/config/default-scene': 'public',
  'PUT /api/config/default-scene': 'admin',

  'POST /api/discovery': 'admin', // ?action=run: one source or all
  'POST /api/quality': 'admin', // ?action=analyze | analyze-all
  'GET /api/quality': 'admin', // ?action=recent-evaluations
  'GET /api/human-evaluation': 'public', // raters are anonymous (spec); rate-limited per IP
  'POST /api/human-evaluation': 'public', // ?action=submit | skip; rate-limited per IP
  'GET /api/evaluation/raters': 'admin',
  'GET /api/quality/analyses': 'admin',
  'GET /api/quality/runs/latest': 'admin',
  'GET /api/quality/queue': 'admin',
  'GET /api/discovery/sources': 'admin',
  'POST /api/discovery/sources': 'admin',
  'PUT /api/discovery/sources/:id': 'admin',
  'DELETE /api/discovery/sources/:id': 'admin',
  'GET /api/discovery/jobs': 'admin',
  'GET /api/discovery/stats': 'admin',
  'POST /api/discovery/extract': 'public', // rate-limited per IP; fetches only through the safe fetcher
  'POST /api/discovery/submit': 'public', // rate-limited per IP

  'GET /api/submissions': 'admin',
  'GET /api/submissions/count': 'admin',
  'POST /api/submissions/approve': 'admin',
  'POST /api/submissions/reject': 'admin',
  'POST /api/submissions/reject-matching': 'admin',

  'GET /api/screens': 'admin',
  'POST /api/screens/command': 'admin',

  'GET /api/weather': 'public', // rate-limited per IP; cached; the API key never leaves the server

  'GET /api/activity': 'admin',
  'GET /api/system/database': 'admin',
  'POST /api/system/initialize': 'admin',

  'POST /api/auth/login': 'public',
  'POST /api/auth/logout': 'public',
  'GET /api/auth/me': 'public',
  'GET /api/auth/tokens': 'admin',
  'POST /api/auth/tokens': 'admin',
  'DELETE /api/auth/tokens': 'admin',
};

/** Socket.IO registrations: screens are public, the admin room needs an admin. */
export const SOCKET_POLICY: Record<'wall' | 'kiosk' | 'rater' | 'admin', Access> = {
  wall: 'public',
  kiosk: 'public',
  rater: 'public',
  admin: 'admin',
};

export interface RouteEntry {
  method: string;
  path: string;
}

/** Every (method, path) the router serves, HEAD folded into GET. */
export function routeTable<S, C>(router: Router<S, C>): RouteEntry[] {
  const entries: RouteEntry[] = [];
  for (const layer of router.stack) {
    if (typeof layer.path !== 'string') continue;
    for (const method of layer.methods) {
      if (method === 'HEAD') continue;
      entries.push({ method, path: layer.path });
    }
  }
  return entries;
}

export function accessFor(method: string, path: string): Access | undefined {
  return POLICY[`${method === 'HEAD' ? 'GET' : method} ${path}`];
}

export function assertPolicyCovers<S, C>(router: Router<S, C>): void {
  const missing = routeTable(router).filter((r) => !accessFor(r.method, r.path));
  if (missing.length > 0) {
    throw new Error(`Routes without an access policy: ${missing.map((r) => `${r.method} ${r.path}`).join(', ')}`);
  }
}
