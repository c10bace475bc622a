import type { RouterContext } from '@koa/router';
import type { EntityManager } from '../db.ts';
import type { Logger } from '../logger.ts';
import type { Role } from '../shared/roles.ts';

/** A signed-in account (session cookie) or a bearer token, with the role it acts with. */
export interface Actor {
  username: string;
  via: 'session' | 'token';
  role: Role;
  /** The account behind a session (tokens have none). */
  userId?: number;
  /** SHA-256 of the session token: lets a logout end that session's live sockets too. */
  sessionHash?: string;
}

/** What every API request carries: its own EntityManager fork, its logger, and who asks. */
export interface AppState {
  em: EntityManager;
  log: Logger;
  /** The admin behind the request (cookie or bearer token), or null; resolved once, on demand. */
  actor: () => Promise<Actor | null>;
}

export type AppContext = RouterContext<AppState>;
