/** /test-db: the database check and the idempotent initialisation. */
import { defineModule } from '../module.ts';
import { systemRouter } from './system.routes.ts';

export const systemModule = defineModule({
  name: 'system',
  routes: ({ commands }) => [systemRouter({ commands })],
});
