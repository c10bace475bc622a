/**
 * The one place commands run: a transaction, the command's journal entry (who changed what,
 * in the same transaction), then — once committed — what it changed goes to the publisher.
 */
import type { EntityManager } from '../db.ts';
import type { ChangePublisher, Changes, DomainChange } from './changes.ts';

/** Writes who did what, inside the command's transaction (the activity module's audit trail). */
export interface CommandJournal {
  record(tx: EntityManager, changes: readonly DomainChange[], actor: string): Promise<void>;
}

/** What every command needs besides its own input: handed to routes (and jobs) in app.ts. */
export interface CommandDeps {
  publisher: ChangePublisher;
  journal?: CommandJournal | undefined;
}

/**
 * Runs `command` as `actor` (an admin's username, `token:<name>`, `anonymous`, `system`) in one
 * transaction, journals and publishes what it changed once it has committed. A command that
 * throws journals and publishes nothing and leaves no partial rows.
 */
export async function runCommand<T>(
  em: EntityManager,
  deps: CommandDeps,
  actor: string,
  command: (tx: EntityManager, changes: Changes) => Promise<T>,
): Promise<T> {
  const changes: Changes = [];
  const result = await em.transactional(async (tx) => {
    const value = await command(tx, changes);
    if (changes.length > 0) await deps.journal?.record(tx, changes, actor);
    return value;
  });
  if (changes.length > 0) await deps.publisher.publish(changes);
  return result;
}

/** Who a request acts as, for its commands (the HTTP context carries it: src/http/context.ts). */
export interface Caller {
  state: { em: EntityManager; actor(): Promise<{ username: string } | null> };
}

/** Runs a request's command as its caller: the admin's username, an API token's name, or anonymous. */
export async function runAs<T>(caller: Caller, deps: CommandDeps, command: (tx: EntityManager, changes: Changes) => Promise<T>): Promise<T> {
  const actor = (await caller.state.actor())?.username ?? 'anonymous';
  return runCommand(caller.state.em, deps, actor, command);
}
