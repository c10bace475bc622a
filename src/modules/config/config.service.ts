/** system_config: plain key/value settings with who changed them and when. */
import type { EntityManager } from '../../db.ts';
import { SystemConfig } from './system-config.entity.ts';

export async function getConfigValue(em: EntityManager, key: string): Promise<string | null> {
  const row = await em.findOne(SystemConfig, { key });
  return row?.value ?? null;
}

export async function setConfigValue(
  em: EntityManager,
  key: string,
  value: string,
  options: { updatedBy: string; description?: string },
): Promise<void> {
  const row = await em.findOne(SystemConfig, { key });
  if (row) {
    row.value = value;
    row.updatedBy = options.updatedBy;
    row.updatedAt = new Date();
  } else {
    em.create(SystemConfig, {
      key,
      value,
      updatedBy: options.updatedBy,
      description: options.description ?? null,
    });
  }
  await em.flush();
}
