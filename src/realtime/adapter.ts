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
 *
 * Closing has a race of its own: the adapter keeps a client only once connected and listening,
 * and its close() releases only a client it keeps. Closed while one is on the way (the first,
 * or a replacement), it keeps that one afterwards and never releases it, and pool.end() waits
 * for it forever: the node never stops. So the client handed out is tracked until released,
 * close() releases it, and from then on connect and LISTEN never settle — the adapter neither
 * keeps a client nor schedules reconnections against an ended pool.
 */
function watchListenClient(pool: pg.Pool, onRelisten: () => void): { close(): void } {
  const connect = pool.connect.bind(pool) as (callback?: unknown) => unknown;
  let acquired = 0;
  let closed = false;
  /** The client the adapter holds or is setting up, until it is released. */
  let handedOut: pg.PoolClient | undefined;
  // Promises that never settle hold nothing: the closed adapter just waits on them forever.
  const never = () => new Promise<never>(() => undefined);
  const failUnlessClosed = (err: unknown) => (closed ? never() : Promise.reject(err));

  function adopt(client: pg.PoolClient): pg.PoolClient | Promise<never> {
    if (closed) {
      client.release(new Error('socket.io adapter closed'));
      return never();
    }
    const reconnect = acquired++ > 0;
    handedOut = client;
    // pg-pool gives every checkout a release() of its own: this one lasts as long as the adapter's.
    const release = client.release;
    client.release = (err?: Error | boolean) => {
      if (handedOut === client) handedOut = undefined;
      release(err);
    };
    client.once('end', () => {
      try {
        client.release(new Error('LISTEN connection ended'));
      } catch {
        // already released (the adapter closed it)
      }
    });
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    (client as { query: unknown }).query = (...args: unknown[]) => {
      const result = query(...args);
      if (typeof args[0] !== 'string' || !args[0].startsWith('LISTEN') || !(result instanceof Promise)) return result;
      return result.then((value: unknown) => {
        if (closed) return never();
        if (reconnect) onRelisten();
        return value;
      }, failUnlessClosed);
    };
    return client;
  }

  (pool as { connect: unknown }).connect = (callback?: unknown) => {
    if (callback !== undefined) return connect(callback);
    return closed ? never() : (connect() as Promise<pg.PoolClient>).then(adopt, failUnlessClosed);
  };

  return {
    close() {
      closed = true;
      const client = handedOut;
      if (!client) return;
      client.removeAllListeners('end'); // as the adapter's own close does: nothing to reconnect
      client.release(new Error('socket.io adapter closed'));
    },
  };
}

type PostgresAdapterFactory = ReturnType<typeof createPostgresAdapter>;

/**
 * Calls `onClosed` right after the adapter's own close, when the Socket.IO server closes (the
 * adapter releases its LISTEN client when its last namespace closes): a client still on the
 * way is then let go at once, not after the hub's other closing steps, where a replacement
 * that got to LISTEN would announce a reconnection (and a resync) in the middle of a close.
 */
function closingWith(factory: PostgresAdapterFactory, onClosed: () => void): PostgresAdapterFactory {
  let open = 0;
  // A function, not an arrow: Socket.IO calls it with `new`.
  return function (nsp: Parameters<PostgresAdapterFactory>[0]) {
    const adapter = factory(nsp);
    open++;
    const close = adapter.close.bind(adapter);
    adapter.close = () => {
      close(); // first: it releases the client it keeps, and a second release would throw
      if (--open === 0) onClosed();
    };
    return adapter;
  };
}

export function postgresAdapter(databaseUrl: string, logger: Logger): AdapterSetup {
  const log = logger.child({ component: 'cluster' });
  const pool = createPool({ connectionString: databaseUrl, max: 4, name: 'socket.io-adapter', logger });
  const listeners = new Set<() => void>();
  const listenClient = watchListenClient(pool, () => {
    log.info('cluster link restored');
    for (const listener of listeners) listener();
  });
  return {
    name: 'postgres',
    supportsRecovery: false,
    factory: closingWith(
      createPostgresAdapter(pool, {
        tableName: 'socket_io_attachments',
        // Publishing fails while the database is away; the outage itself is logged once elsewhere.
        errorHandler: (err) => (isDatabaseUnavailable(err) ? log.debug({ err }, 'cluster message not sent') : log.warn({ err }, 'socket.io postgres adapter error')),
      }),
      () => listenClient.close(),
    ),
    onReconnected: (listener) => void listeners.add(listener),
    // Again here (closing twice is harmless): pool.end() waits for every client to be released.
    close: () => {
      listenClient.close();
      return pool.end();
    },
  };
}

/** Loaded only when REDIS_URL is set: the Redis client alone costs a quarter second at start. */
export async function redisAdapter(redisUrl: string, logger: Logger): Promise<AdapterSetup> {
  const [{ createClient }, { createAdapter }] = await Promise.all([import('redis'), import('@socket.io/redis-streams-adapter')]);
  const client = createClient({ url: redisUrl });
  client.on('error', (err: unknown) => logger.warn({ err }, 'socket.io redis adapter error'));
  await client.connect();
  const named = process.env.NW_REDIS_STREAM || undefined;
  return {
    name: 'redis',
    supportsRecovery: true,
    factory: createAdapter(client, {
      streamName: named ?? 'nature-wall:socket.io',
      // Messages that skip the stream (a change notice, a presence request, their answers) go by
      // Redis PUB/SUB, on channels named by this prefix: a deployment that names its stream (two
      // on one Redis) is kept apart there too. Unnamed, the adapter's defaults stay, so nodes
      // upgraded one by one keep hearing the ones not yet upgraded.
      ...(named ? { channelPrefix: named, sessionKeyPrefix: `${named}:session:` } : {}),
    }),
    redisClient: client,
    close: async () => {
      await client.quit().catch(() => undefined);
    },
  };
}
