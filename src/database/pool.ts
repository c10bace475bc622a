/**
 * The one place that creates `pg` pools outside the ORM (the Socket.IO adapter, rate limits,
 * later the job queue). A `pg` client emits 'error' when the server drops it (a restart sends
 * 57P01 to every connection); an 'error' event with no listener kills the process. pg-pool
 * only listens while a client is idle, so every client gets a listener of its own here, for
 * its whole life — including clients a library checks out and keeps (a LISTEN connection).
 * The ORM's own pool does the same inside MikroORM (PostgreSqlConnection.handlePoolErrors).
 */
import pg from 'pg';
import type { Logger } from '../logger.ts';

export interface PoolOptions {
  connectionString: string;
  max: number;
  /** What the pool is for, in logs. */
  name: string;
  logger: Logger;
}

/** Fail fast when the server is unreachable instead of queueing callers forever. */
const CONNECT_TIMEOUT_MS = 5_000;

export function createPool(options: PoolOptions): pg.Pool {
  const log = options.logger.child({ component: 'pg-pool', pool: options.name });
  const pool = new pg.Pool({ connectionString: options.connectionString, max: options.max, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
  guardPool(pool, log);
  return pool;
}

/** Gives a pool and every client it creates an error path (debug: availability logs outages once). */
export function guardPool(pool: pg.Pool, log: Logger): void {
  pool.on('error', (err) => log.debug({ err }, 'idle connection dropped'));
  pool.on('connect', (client) => {
    client.on('error', (err) => log.debug({ err }, 'connection dropped'));
  });
}
