/**
 * Who may call what. Each endpoint declares its access where it is declared
 * (src/shared/api/<feature>.ts, `access: 'public'` or the least role, src/shared/roles.ts), and
 * routes are mounted on those declarations (src/http/route.ts): a route without one is refused at
 * start-up (assertEveryRouteDeclared), so a new route cannot be forgotten. Public: what screens,
 * visitors and raters need; everything else names the least role that may do it.
 */
import type Router from '@koa/router';
import type { Access } from '../../shared/api/contract.ts';
import { endpointOf } from '../../http/route.ts';

export type { Access } from '../../shared/api/contract.ts';

/**
 * Socket.IO registrations: screens are public; the console's room (every admin push) needs a
 * signed-in account of any role — what a role may *change* is decided per REST call.
 */
export const SOCKET_POLICY: Record<'wall' | 'kiosk' | 'rater' | 'admin', Access> = {
  wall: 'public',
  kiosk: 'public',
  rater: 'public',
  admin: 'viewer',
};

export interface RouteEntry {
  method: string;
  path: string;
  /** Undefined for a route mounted without an endpoint (refused at start-up). */
  access: Access | undefined;
}

/** Every (method, path) the router serves, HEAD folded into GET, with its declared access. */
export function routeTable<S, C>(router: Router<S, C>): RouteEntry[] {
  const entries: RouteEntry[] = [];
  for (const layer of router.stack) {
    if (typeof layer.path !== 'string') continue;
    const access = endpointOf(layer)?.access;
    for (const method of layer.methods) {
      if (method === 'HEAD') continue;
      entries.push({ method, path: layer.path, access });
    }
  }
  return entries;
}

export function assertEveryRouteDeclared<S, C>(router: Router<S, C>): void {
  const missing = routeTable(router).filter((r) => !r.access);
  if (missing.length > 0) {
    throw new Error(`Routes mounted without an endpoint of the contract: ${missing.map((r) => `${r.method} ${r.path}`).join(', ')}`);
  }
}
