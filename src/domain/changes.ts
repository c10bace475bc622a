/**
 * What a command changed, in domain words. Services record changes while their transaction
 * runs; after it commits, one publisher hands them on (the hub turns them into pushes).
 *
 * The vocabulary belongs to the features: each module declares its own change types by adding
 * them to `ChangeTypes` (module augmentation, see modules/streams/stream.changes.ts), and
 * `DomainChange` is the union of whatever the modules declared. Adding a feature's changes
 * edits no file here and none under realtime/.
 */

/** Change types by name; each feature module adds its own (`declare module`). */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by module augmentation
export interface ChangeTypes {}

export type DomainChange = ChangeTypes[keyof ChangeTypes];
export type ChangeType = DomainChange['type'];

/**
 * Progress, not history: a change marked `transient` is pushed but never journaled (a running
 * job's "found 25 more" is news for the console, not an entry of the audit trail).
 */
export function isJournaled(change: DomainChange): boolean {
  return !(change as { transient?: boolean }).transient;
}

/**
 * When screens show a change (epoch ms): a change may ask for a later instant than the usual
 * commit + flip lead (a schedule boundary, queued a little early, flips at the boundary itself).
 */
export function requestedInstant(changes: readonly DomainChange[]): number | null {
  const asked = changes.map((c) => (c as { showAt?: number }).showAt).filter((t): t is number => typeof t === 'number');
  return asked.length ? Math.max(...asked) : null;
}

/** The changes of one command, recorded while it runs. */
export type Changes = DomainChange[];

export interface ChangePublisher {
  /** Called after commit; must not throw (the write already happened). */
  publish(changes: readonly DomainChange[]): Promise<void>;
}

/** Narrows a list of changes to some of its types. */
export function changesOf<T extends ChangeType>(changes: readonly DomainChange[], ...types: T[]): Extract<DomainChange, { type: T }>[] {
  const wanted = new Set<string>(types);
  return changes.filter((c): c is Extract<DomainChange, { type: T }> => wanted.has(c.type));
}
