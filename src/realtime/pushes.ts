/**
 * How features tell the hub what to push. A feature module hands the hub a `FeaturePushes`:
 * the rooms its pushes go to and a function from committed changes to pushes (event of
 * src/shared/events.ts plus payload, computed after commit). The hub runs it on every node
 * that has sockets in one of those rooms and emits to its own sockets; it never learns what
 * the changes mean. Adding a push is a change to the feature's module and one line of wiring.
 */
import type { DomainChange } from '../domain/changes.ts';
import type { ServerToClientEvents } from '../shared/events.ts';
import type { Affected, SceneResolution } from './scene-directory.ts';

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
  /** The scenes these changes touch on screen (the hub works this out once, on the origin node). */
  scenes: Affected;
  /** Those scenes (and the default scene when it changed) as they are now, resolved once on this node for the screens and every feature. */
  resolution: SceneResolution;
}

export interface FeaturePushes {
  /** A name for logs. */
  name: string;
  /** Every room this feature pushes to: on a node with no socket in any of them, nothing is computed. */
  rooms: readonly string[];
  /** The pushes for a batch of committed changes (often none). */
  pushes(changes: readonly DomainChange[], context: PushContext): Promise<readonly Push[]>;
}
