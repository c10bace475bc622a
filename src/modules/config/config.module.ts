/** System settings kept in the database (the default scene): rows others ask this module for. */
import { defineModule } from '../module.ts';
import { SystemConfig } from './system-config.entity.ts';

export const configModule = defineModule({
  name: 'config',
  entities: [SystemConfig],
});
