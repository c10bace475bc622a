/**
 * The cluster-wide push version: a PostgreSQL sequence (created by the migrations), so every
 * node labels its pushes in one order and a screen never applies an older state after a newer.
 */
import type { Orm } from '../db.ts';

const VERSION_SEQUENCE = 'screen_push_version';

export interface PushVersions {
  /** The last version handed out in the cluster (0 before the first). */
  current(): Promise<number>;
  /** A new, higher version. */
  next(): Promise<number>;
}

export function pushVersions(orm: Orm): PushVersions {
  const one = async (sql: string) => {
    const [row] = await orm.em.getConnection().execute<{ v: string }[]>(sql);
    return Number(row?.v ?? 0);
  };
  return {
    current: () => one(`select case when is_called then last_value else 0 end as v from ${VERSION_SEQUENCE}`),
    next: () => one(`select nextval('${VERSION_SEQUENCE}') as v`),
  };
}
