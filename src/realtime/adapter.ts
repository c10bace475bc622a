/**
 * How hub nodes reach each other: the Socket.IO Postgres adapter on the app's own database
 * (no extra service), or the Redis Streams adapter when REDIS_URL is set — the latter also
 * supports Socket.IO connection-state recovery.
 */
import { createAdapter as createPostgresAdapter } from '@socket.io/postgres-adapter';
import type { createAdapter as createRedisStreamsAdapter } from '@socket.io/redis-streams-adapter';
import pg from 'pg';
import type { Logger } from '../logger.ts';

export interface AdapterSetup {
  name: 'postgres' | 'redis';
  /** Whether disconnected sockets can be recovered with their rooms and missed packets. */
  supportsRecovery: boolean;
  factory: ReturnType<typeof createPostgresAdapter> | ReturnType<typeof createRedisStreamsAdapter>;
  /** The Redis client, when Redis is used: other cluster-wide state (rate limits) shares it. */
  redisClient?: unknown;
  close(): Promise<void>;
}

export function postgresAdapter(databaseUrl: string, logger: Logger): AdapterSetup {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 4 });
  pool.on('error', (err) => logger.warn({ err }, 'socket.io postgres adapter pool error'));
  return {
    name: 'postgres',
    supportsRecovery: false,
    factory: createPostgresAdapter(pool, {
      tableName: 'socket_io_attachments',
      errorHandler: (err) => logger.warn({ err }, 'socket.io postgres adapter error'),
    }),
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
