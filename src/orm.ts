/**
 * Starting the ORM with every module's entities (and the core's: the Socket.IO adapter's
 * attachments) — for the server, the scripts, the tests and the benchmarks.
 */
import { MikroORM } from '@mikro-orm/postgresql';
import { ormConfig, type EntityClass, type Orm, type OrmOptions } from './db.ts';
import { MODULES } from './modules/index.ts';
import { SocketIoAttachment } from './realtime/attachment.entity.ts';

export const ENTITIES: readonly EntityClass[] = [SocketIoAttachment, ...MODULES.flatMap((m) => m.entities ?? [])];

export async function initORM(options: OrmOptions): Promise<Orm> {
  return MikroORM.init(ormConfig({ ...options, entities: ENTITIES }));
}

/**
 * Applies every pending migration, all or nothing. Returns the names applied. A failure names
 * the migration that failed and says that the database is as it was (src/db.ts: allOrNothing).
 */
export async function migrate(orm: Orm): Promise<string[]> {
  let running: string | undefined;
  const note = (event: { name: string }) => void (running = event.name);
  orm.migrator.on('migrating', note);
  try {
    const applied = await orm.migrator.up();
    return applied.map((m) => m.name);
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw new Error(`The migration ${running ?? '(unknown)'} failed: ${why}. Nothing of this upgrade was kept: the database is as it was before it.`, { cause: error });
  } finally {
    orm.migrator.off('migrating', note);
  }
}
