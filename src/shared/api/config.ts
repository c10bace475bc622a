/** The default scene (system_config `default_scene_id`). */
import { z } from 'zod';
import { Id, IsoDate } from './common.ts';
import { endpoint } from './contract.ts';
import { ROUTES } from './routes.ts';

export const DefaultSceneUpdate = z.object({ scene_id: Id });
export type DefaultSceneUpdate = z.infer<typeof DefaultSceneUpdate>;

export const DefaultSceneDto = z.strictObject({
  scene_id: z.number().int(),
  updated_by: z
    .string()
    .nullable()
    .optional()
    .describe('Admins only: who last changed it (username, `token:<name>`, `system`)'),
  updated_at: IsoDate.nullable().optional().describe('Admins only: when it was last changed'),
});
export type DefaultSceneDto = z.output<typeof DefaultSceneDto>;

export const defaultSceneEndpoints = {
  get: endpoint({
    ...ROUTES['defaultScene.get'],
    summary: 'The default scene\'s id (admins also see who last changed it and when)',
    access: 'public',
    responses: { 200: DefaultSceneDto },
    errors: [404],
  }),
  set: endpoint({
    ...ROUTES['defaultScene.set'],
    summary: 'Make an active scene the default one',
    access: 'operator',
    body: DefaultSceneUpdate,
    responses: { 200: DefaultSceneDto },
    errors: [404, 409],
  }),
};
