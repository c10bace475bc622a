/** /test-db: is the database there, and what is in it. */
import type { EntityManager } from '../../db.ts';

export async function testDatabase(em: EntityManager): Promise<{ latencyMs: number; serverVersion: string; database: string; migrationsApplied: number }> {
  const started = performance.now();
  const [row] = await em.execute<{ version: string; database: string; migrations: number }[]>(
    `select current_setting('server_version') as version, current_database() as database,
            (select count(*)::int from mikro_orm_migrations) as migrations`,
  );
  return {
    latencyMs: Math.round((performance.now() - started) * 10) / 10,
    serverVersion: row?.version ?? 'unknown',
    database: row?.database ?? 'unknown',
    migrationsApplied: row?.migrations ?? 0,
  };
}
