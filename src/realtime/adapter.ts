/**
 * How hub nodes reach each other: the Socket.IO Postgres adapter on the app's own database
 * (no extra service), or the Redis Streams adapter when REDIS_URL is set — the latter also
 * supports Socket.IO connection-state recovery.
 */
import { createAdapter as createPostgresAdapter } from '@socket.io/postgres-adapter';
import type { createAdapter as createRedisStreamsAdapter } from '@socket.io/redis-streams-adapter';
import type pg from 'pg';
import { isDatabaseUnavailable } from '../database/availability.ts';
import { createPool } from '../database/pool.ts';
import type { Logger } from '../logger.ts';

export interface AdapterSetup {
  name: 'postgres' | 'redis';
  /** Whether disconnected sockets can be recovered with their rooms and missed packets. */
  supportsRecovery: boolean;
  factory: ReturnType<typeof createPostgresAdapter> | ReturnType<typeof createRedisStreamsAdapter>;
  /** The Redis client, when Redis is used: other cluster-wide state (rate limits) shares it. */
  redisClient?: unknown;
  /** Called when the link between nodes is back after a break (notices may have been missed). */
  onReconnected?(listener: () => void): void;
  close(): Promise<void>;
}

/**
 * The adapter keeps one pooled client for LISTEN and re-acquires one when it ends, but it
 * never releases the dead client (one pool slot lost per database restart) and gives it no
 * 'error' listener (createPool adds that). Here a LISTEN client that ends is released with an
 * error, which removes it from the pool, and a LISTEN on a replacement client announces that
 * the link is back. The adapter takes that client with `pool.connect()` and no callback;
 * pool.query() passes one, so the two are told apart without patching the adapter.
 */
function watchListenClient(pool: pg.Pool, onRelisten: () => void): void {
  const connect = pool.connect.bind(pool) as (callback?: unknown) => unknown;
  let acquired = 0;
  (pool as { connect: unknown }).connect = (callback?: unknown) => {
    if (callback !== undefined) return connect(callback);
    return (connect() as Promise<pg.PoolClient>).then((client) => {
      const reconnect = acquired++ > 0;
      client.once('end', () => {
        try {
          client.release(new Error('LISTEN connection ended'));
        } catch {
          // already released (the adapter closed it)
        }
      });
      if (reconnect) {
        const query = client.query.bind(client) as (...args: unknown[]) => unknown;
        (client as { query: unknown }).query = (...args: unknown[]) => {
          const result = query(...args);
          if (typeof args[0] === 'string' && args[0].startsWith('LISTEN') && result instanceof Promise) {
            void result.then(onRelisten, () => undefined);
          }
          return result;
        };
      }
      return client;
    });
  };
}

export function postgresAdapter(databaseUrl: string, logger: Logger): AdapterSetup {
  const log = logger.child({ component: 'cluster' });
  const pool = createPool({ connectionString: databaseUrl, max: 4, name: 'socket.io-adapter', logger });
  const listeners = new Set<() => void>();
  watchListenClient(pool, () => {
    log.info('cluster link restored');
    for (const listener of listeners) listener();
  });
  return {
    name: 'postgres',
    supportsRecovery: false,
    factory: createPostgresAdapter(pool, {
      tableName: 'socket_io_attachments',
      // Publishing fails while the database is away; the outage itself is logged once elsewhere.
      errorHandler: (err) => (isDatabaseUnavailable(err) ? log.debug({ err }, 'cluster message not sent') : log.warn({ err }, 'socket.io postgres adapter error')),
    }),
    onReconnected: (listener) => void listeners.add(listener),
    close: () => pool.end(),
  };
}

/** Loaded only when REDIS_URL is set: the Redis client alone costs a quarter second at start. */
export async function redisAdapter(redisUrl: string, logger: Logger): Promise<AdapterSetup> {
  const [{ createClient }, { createAdapter }] = await Promise.all([import('redis'), import('@socket.io/redis-streams-adapter')]);
  const client = createClient({ url: redisUrl });
  client.on('error', (err: unknown) => logger.warn({ err }, 'socket.io redis adapter error'));
  await client.connect();
  return {
    name: 'redis',
    supportsRecovery: true,
    factory: createAdapter(client, { streamName: process.env.NW_REDIS_STREAM ?? 'nature-wall:socket.io' }),
    redisClient: client,
    close: async () => {
      await client.quit().catch(() => undefined);
    },
  };
}
