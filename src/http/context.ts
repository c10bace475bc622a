import type { RouterContext } from '@koa/router';
import type { EntityManager } from '../db.ts';
import type { Logger } from '../logger.ts';

/** What every API request carries: its own EntityManager fork and its request logger. */
export interface AppState {
  em: EntityManager;
  log: Logger;
}

export type AppContext = RouterContext<AppState>;
