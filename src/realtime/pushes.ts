/**
 * How features tell the hub what to push. A feature module declares a `FeaturePushes`: the
 * rooms its pushes go to, what the committing node works out once for every node (`origin`,
 * carried with the change notice), and a function from committed changes to pushes (event of
 * src/shared/events.ts plus payload). The hub runs it on every node that has sockets in one of
 * those rooms and emits to its own sockets; it never learns what the changes mean.
 */
import type { DomainChange } from '../domain/changes.ts';
import type { ServerToClientEvents } from '../shared/events.ts';

type EventName = keyof ServerToClientEvents;
type PayloadOf<E extends EventName> = Parameters<ServerToClientEvents[E]>[0];

/** One event to the sockets of some rooms. */
export type Push = { [E in EventName]: { rooms: readonly string[]; event: E; payload: PayloadOf<E> } }[EventName];

/** A typed push: `push([KIND_ROOMS.admin], 'stream:deleted', { version, stream_id })`. */
export function push<E extends EventName>(rooms: readonly string[], event: E, payload: PayloadOf<E>): Push {
  return { rooms, event, payload } as Push;
}

export interface PushContext {
  /** The cluster-wide version of this batch of changes (screens and consoles order by it). */
  version: number;
  /** What this feature's `origin` worked out on the node that committed (undefined without one). */
  facts: unknown;
}

export interface FeaturePushes {
  /** A name for logs, and the key of its facts in the notice. */
  name: string;
  /** Every room this feature pushes to: on a node with no socket in any of them, nothing is computed. */
  rooms: readonly string[];
  /** On the node that committed, once: what every node needs for these pushes (JSON). */
  origin?(changes: readonly DomainChange[]): Promise<unknown>;
  /** The pushes for a batch of committed changes (often none). */
  pushes(changes: readonly DomainChange[], context: PushContext): Promise<readonly Push[]>;
}
