/** /test-db: the database connection test and the idempotent initialisation. */
import { z } from 'zod';
import { endpoint } from './contract.ts';
import { ROUTES } from './routes.ts';

export const DatabaseTestDto = z.strictObject({
  status: z.literal('success'),
  latency_ms: z.number().describe('One round trip, in milliseconds (one decimal)'),
  server_version: z.string(),
  database: z.string(),
  migrations_applied: z.number().int(),
});
export type DatabaseTestDto = z.output<typeof DatabaseTestDto>;

/** What was missing and is there now; both false when everything already existed. */
export const InitializeDto = z.strictObject({
  created_default_scene: z.boolean().describe('The scene named Default was missing and was created'),
  set_default_scene_id: z.boolean().describe('No default scene was set; it is now'),
  default_scene_id: z.number().int(),
});
export type InitializeDto = z.output<typeof InitializeDto>;

export const systemEndpoints = {
  database: endpoint({
    ...ROUTES['system.database'],
    summary: 'Test the database connection (a database away answers 503 with its reason)',
    access: 'admin',
    responses: { 200: DatabaseTestDto },
  }),
  initialize: endpoint({
    ...ROUTES['system.initialize'],
    summary: 'Create the Default scene and the default scene setting, each only when missing (idempotent)',
    access: 'admin',
    responses: { 200: InitializeDto },
    errors: [409],
  }),
};
