import type { RouterContext } from '@koa/router';
import type { EntityManager } from '../db.ts';
import type { Logger } from '../logger.ts';

/** An authenticated administrator: through a session cookie or a bearer token. */
export interface Actor {
  username: string;
  via: 'session' | 'token';
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
