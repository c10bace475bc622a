/** system_config: plain key/value settings with who changed them and when. */
import type { EntityManager } from '../../db.ts';
import { SystemConfig } from './system-config.entity.ts';

export async function getConfigValue(em: EntityManager, key: string): Promise<string | null> {
  const row = await em.findOne(SystemConfig, { key });
  return row?.value ?? null;
}

/**
 * Writes a setting in one statement; answers whether the value changed. (The default scene
 * switch is the product's hottest write: every wall waits on it.)
 */
export async function setConfigValue(
  em: EntityManager,
  key: string,
  value: string,
  options: { updatedBy: string; description?: string },
): Promise<boolean> {
  const rows = await em.execute<{ key: string }[]>(
    `insert into system_config as c (key, value, description, updated_by, updated_at) values (?, ?, ?, ?, now())
     on conflict (key) do update set value = excluded.value, updated_by = excluded.updated_by, updated_at = now()
     where c.value is distinct from excluded.value
     returning c.key`,
    [key, value, options.description ?? null, options.updatedBy]
  );
  return rows.length > 0;
}
