/**
 * What other modules may read of the scenes — the only way they read them (a read that must join
 * for speed lives in the asking module's `*-queries.ts`; tests/architecture/foreign-reads).
 */
import type { EntityManager } from '../../db.ts';
import { Scene } from './scene.entity.ts';

/** The names of the scenes among these ids that exist (deleted ones too: a schedule's journal line names its scene). */
export async function sceneNames(em: EntityManager, ids: readonly number[]): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  return new Map((await em.find(Scene, { id: { $in: [...new Set(ids)] } }, { fields: ['id', 'name'] })).map((s) => [s.id, s.name]));
}
