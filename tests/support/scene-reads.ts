/**
 * Counts the scene reads an app runs on its own pool: the prepared statements the scene
 * snapshots use (named nw_…; src/modules/scenes/scene-queries.ts), on the real pg pool.
 */
import type { Orm } from '../../src/db.ts';

export interface SceneReads {
  /** Scene reads since the count started or was last reset. */
  readonly count: number;
  reset(): void;
  /** Puts the pool's query back. */
  stop(): void;
}

export async function countSceneReads(orm: Orm): Promise<SceneReads> {
  const pool = (await orm.em.getConnection().getNativeClient()) as unknown as { query: (...args: unknown[]) => unknown };
  const query = pool.query;
  let count = 0;
  pool.query = (...args: unknown[]) => {
    if ((args[0] as { name?: string } | undefined)?.name?.startsWith('nw_')) count++;
    return query.apply(pool, args);
  };
  return {
    get count() {
      return count;
    },
    reset: () => void (count = 0),
    stop: () => void (pool.query = query),
  };
}
