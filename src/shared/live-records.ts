/**
 * The one rule by which a console merges what it fetched with what it was pushed — for every
 * live list (streams, scenes, jobs, sources…) and every live value (the default scene, the
 * queue, a run): a newer state never gives way to an older one.
 *
 * Every push carries the cluster-wide version of its change. A fetch is labelled with the
 * highest version the console had seen when the fetch *started*: every change up to it was
 * committed before the read, so the read includes it. Then:
 * - a push applies to a record only if its version is newer than what set that record;
 * - a fetched record replaces one only if that one was not set by a push newer than the label
 *   (such a push arrived while the fetch was on its way, and the fetch may predate it);
 * - a record missing from a fetch is gone, unless a push newer than the label made it;
 * - a deletion is kept as a tombstone, so an older push cannot bring the record back.
 * Shaped like screen-state.ts's rule for screens; table-tested in tests/unit/live-records.test.ts.
 */

export type RecordKey = string | number;

export interface Versioned<T> {
  /** null: deleted (a tombstone). */
  value: T | null;
  version: number;
}

export type LiveRecords<T> = ReadonlyMap<RecordKey, Versioned<T>>;

export function emptyRecords<T>(): LiveRecords<T> {
  return new Map();
}

/** A pushed record (or its deletion, `value: null`) at `version`. */
export function applyPush<T>(records: LiveRecords<T>, key: RecordKey, value: T | null, version: number): LiveRecords<T> {
  const current = records.get(key);
  if (current && current.version >= version) return records;
  const next = new Map(records);
  next.set(key, { value, version });
  return next;
}

/**
 * A fetched list, labelled with the highest version seen when the fetch started. `complete`:
 * the list is the whole set (records missing from it are gone); a page is not.
 */
export function applyFetch<T>(records: LiveRecords<T>, fetched: readonly T[], keyOf: (item: T) => RecordKey, label: number, complete = true): LiveRecords<T> {
  const next = new Map<RecordKey, Versioned<T>>();
  for (const [key, entry] of records) {
    // Pushed while the fetch was on its way: the fetch may predate it. Otherwise a page keeps the rest.
    if (entry.version > label || !complete) next.set(key, entry);
  }
  for (const item of fetched) {
    const key = keyOf(item);
    const kept = next.get(key);
    if (kept && kept.version > label) continue;
    next.set(key, { value: item, version: label });
  }
  return next;
}

/** One record fetched on its own (null: not found), labelled like a list: a newer push wins. */
export function applyFetchOne<T>(records: LiveRecords<T>, key: RecordKey, value: T | null, label: number): LiveRecords<T> {
  const current = records.get(key);
  if (current && current.version > label) return records;
  const next = new Map(records);
  next.set(key, { value, version: label });
  return next;
}

/** The live records, without tombstones, in the order `compare` gives (insertion order by default). */
export function liveValues<T>(records: LiveRecords<T>, compare?: (a: T, b: T) => number): T[] {
  const values: T[] = [];
  for (const entry of records.values()) if (entry.value !== null) values.push(entry.value);
  return compare ? values.sort(compare) : values;
}

/** One live value (the default scene, a run, the queue) under the same rule. */
export function applyVersioned<T>(current: Versioned<T> | null, value: T, version: number): Versioned<T> {
  return current && current.version >= version ? current : { value, version };
}
