import { defineEntity, p } from '@mikro-orm/core';

/** Key/value settings (spec §3); `default_scene_id` holds the default scene id as text. */
export const SystemConfigSchema = defineEntity({
  name: 'SystemConfig',
  tableName: 'system_config',
  properties: {
    key: p.text().primary(),
    value: p.text(),
    description: p.text().nullable(),
    updatedBy: p.text().nullable(),
    updatedAt: p.datetime().defaultRaw('now()').onCreate(() => new Date()).onUpdate(() => new Date()),
  },
});

export class SystemConfig extends SystemConfigSchema.class {}
SystemConfigSchema.setClass(SystemConfig);
