/** Routes run commands as the caller: the admin's username, an API token's name, or anonymous. */
import { runCommand, type CommandDeps } from '../domain/command.ts';
import type { Changes } from '../domain/changes.ts';
import type { EntityManager } from '../db.ts';
import type { AppContext } from './context.ts';

export async function runAs<T>(ctx: AppContext, deps: CommandDeps, command: (tx: EntityManager, changes: Changes) => Promise<T>): Promise<T> {
  const actor = (await ctx.state.actor())?.username ?? 'anonymous';
  return runCommand(ctx.state.em, deps, actor, command);
}
