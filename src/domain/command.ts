/** The one place commands run: a transaction, then what it changed goes to the publisher. */
import type { EntityManager } from '../db.ts';
import type { ChangePublisher, Changes } from './changes.ts';

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
