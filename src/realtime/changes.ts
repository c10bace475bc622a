/**
 * What a command changed, in domain words. Services record changes while their transaction
 * runs; after it commits, one publisher turns them into pushes. Nothing else emits.
 */
import type { EntityManager } from '../db.ts';

export type DomainChange =
  | { type: 'stream.created'; streamId: number }
  | { type: 'stream.updated'; streamId: number }
  | { type: 'stream.deleted'; streamId: number; sceneIds: number[] }
  | { type: 'scene.created'; sceneId: number }
  | { type: 'scene.updated'; sceneId: number }
  | { type: 'scene.deleted'; sceneId: number }
  | { type: 'default-scene.changed'; sceneId: number };

export interface ChangePublisher {
  /** Called after commit; must not throw (the write already happened). */
  publish(changes: readonly DomainChange[]): Promise<void>;
}

/** Records changes during a transaction. */
export type Changes = DomainChange[];


/**
 * Runs `command` in one transaction and publishes what it changed once it has committed.
 * A command that throws publishes nothing and leaves no partial rows. A command made of a
 * single SQL statement (atomic by itself) may skip BEGIN/COMMIT with `transaction: false`.
 */
export async function runCommand<T>(
  em: EntityManager,
  publisher: ChangePublisher,
  command: (tx: EntityManager, changes: Changes) => Promise<T>,
  options: { transaction?: boolean } = {},
): Promise<T> {
  const changes: Changes = [];
  const result = options.transaction === false ? await command(em, changes) : await em.transactional((tx) => command(tx, changes));
  if (changes.length > 0) await publisher.publish(changes);
  return result;
}
