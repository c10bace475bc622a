/** system_config: plain key/value settings with who changed them and when. */
import type { EntityManager } from '../../db.ts';
import { SystemConfig } from './system-config.entity.ts';

export function getConfigRow(em: EntityManager, key: string): Promise<SystemConfig | null> {
  return em.findOne(SystemConfig, { key });
}

export async function getConfigValue(em: EntityManager, key: string): Promise<string | null> {
  return (await getConfigRow(em, key))?.value ?? null;
}

export interface ConfigWrite {
  key: string;
  value: string;
  /** Who changed it: an admin's username, `token:<name>`, or `system`. */
  updatedBy: string;
  description?: string | null;
}

/**
 * The one upsert of a setting, as a statement to run or to embed: it writes only when the
 * value changes and returns one row (`key`) when it did. `guard` is a FROM/WHERE clause that
 * must yield a row for the write to happen (e.g. "from target where active"), so a caller can
 * check a condition and write in one statement.
 */
export function configUpsert(write: ConfigWrite, guard = ''): { sql: string; params: unknown[] } {
  return {
    sql: `insert into system_config as c (key, value, description, updated_by, updated_at)
     select ?, ?, ?, ?, now() ${guard}
     on conflict (key) do update set value = excluded.value, updated_by = excluded.updated_by, updated_at = now()
     where c.value is distinct from excluded.value
     returning c.key`,
    params: [write.key, write.value, write.description ?? null, write.updatedBy],
  };
}

/** Writes a setting in one statement; answers whether the value changed. */
export async function setConfigValue(em: EntityManager, write: ConfigWrite): Promise<boolean> {
  const { sql, params } = configUpsert(write);
  return (await em.execute<{ key: string }[]>(sql, params)).length > 0;
}
