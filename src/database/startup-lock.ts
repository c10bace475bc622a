/**
 * First-start work (migrations, the seed, the first admin) under one PostgreSQL advisory
 * lock, so replicas started at the same moment on an empty database take turns: the first
 * does the work, the others find it done. The lock is held by a connection of its own and
 * released by PostgreSQL itself if this process dies.
 */
import pg from 'pg';

/** pg_advisory_lock key: "nw start" (any constant our other locks do not use). */
const STARTUP_LOCK = 7_361_000;

export async function withStartupLock<T>(databaseUrl: string, work: () => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: databaseUrl });
  client.on('error', () => undefined); // a dropped lock connection surfaces in `work` or the unlock
  await client.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [STARTUP_LOCK]);
    try {
      return await work();
    } finally {
      await client.query('select pg_advisory_unlock($1)', [STARTUP_LOCK]).catch(() => undefined);
    }
  } finally {
    await client.end().catch(() => undefined);
  }
}
