/**
 * How an admin feature keeps its part of the console live. A feature declares a `LiveSlice`
 * beside its code (streams/streams.live.ts, …) and lists it in live-slices.ts, as tabs are
 * listed in tabs.ts: the slice loads its state over REST and listens to its pushes on the
 * console's one socket (useAdminLive opens it and runs every slice). Every list and value
 * merges pushes and fetches by the one versioned rule (src/shared/live-records.ts): a fetch is
 * labelled with `label()` when it starts, so a late push or a stale fetch never undoes a newer
 * state.
 */
import { atom, useAtomValue, type WritableAtom } from 'jotai';
import { useEffect, useState } from 'react';
import {
  applyFetch,
  applyPush,
  applyVersioned,
  liveValues,
  type LiveRecords,
  type RecordKey,
  type Versioned,
} from '../../../../src/shared/live-records.ts';
import type { ScreenSocket } from '../../../../src/shared/screen-client.ts';
import { store } from '../../../lib/store.ts';
import { reasonOf, showFailure } from '../feedback.ts';

export interface LiveSlice {
  name: string;
  /** Loads the slice's state over REST (when the console opens, and after every reconnect). */
  load(): void;
  /** Subscribes to the slice's pushes (once per socket). */
  listen(socket: ScreenSocket): void;
}

let seen = 0;

/** The newest push version the console has seen: a fetch started now includes every change up to it. */
export const label = () => seen;

/** Every versioned push passes here first (useAdminLive), so labels stay current. */
export function notePushVersion(payload: unknown): void {
  const version = (payload as { version?: unknown } | null)?.version;
  if (typeof version === 'number' && version > seen) seen = version;
}

/** Moves on every reconnect: what tabs fetch themselves is fetched again (useLiveFetch). */
export const reconnectsAtom = atom(0);

type SetAtom<T> = WritableAtom<T, [T | ((current: T) => T)], void>;

// ---- lists ----------------------------------------------------------------------------------

/** A live list in the store: its records under the rule, and how its last fetch went. */
export interface LiveList<T> {
  status: 'loading' | 'ready' | 'error';
  error: string | null;
  records: LiveRecords<T>;
}

export const emptyList = <T>(): LiveList<T> => ({ status: 'loading', error: null, records: new Map() });

/** The list's records, tombstones left out, in the order `compare` gives. */
export const itemsOf = <T>(list: LiveList<T>, compare?: (a: T, b: T) => number): T[] => liveValues(list.records, compare);

/**
 * Fetches into a list and merges by the rule; a failure keeps what the list had and is shown
 * with the server's reason. `complete`: the answer is the whole list (records it lacks are gone).
 */
export async function fetchInto<T>(
  target: SetAtom<LiveList<T>>,
  fetcher: () => Promise<readonly T[]>,
  keyOf: (item: T) => RecordKey,
  failure: string,
  complete = true,
): Promise<void> {
  const started = label();
  try {
    const items = await fetcher();
    store.set(target, (list) => ({ status: 'ready', error: null, records: applyFetch(list.records, items, keyOf, started, complete) }));
  } catch (error) {
    store.set(target, (list) => ({ ...list, status: list.status === 'ready' ? 'ready' : 'error', error: reasonOf(error) }));
    showFailure(failure, error);
  }
}

/** A pushed record (or its deletion: `null`) merged by the rule. */
export function pushInto<T>(target: SetAtom<LiveList<T>>, key: RecordKey, value: T | null, version: number): void {
  store.set(target, (list) => ({ ...list, records: applyPush(list.records, key, value, version) }));
}

/** A pushed whole list (short lists are pushed whole: discovery sources): a snapshot at its version. */
export function pushListInto<T>(target: SetAtom<LiveList<T>>, items: readonly T[], keyOf: (item: T) => RecordKey, version: number): void {
  store.set(target, (list) => ({ status: 'ready', error: null, records: applyFetch(list.records, items, keyOf, version) }));
}

// ---- single values --------------------------------------------------------------------------

/** One live value (the default scene, a run, the queue, a count); null until first known. */
export type LiveValue<T> = Versioned<T> | null;

export const valueOf = <T>(live: LiveValue<T>): T | null => live?.value ?? null;

/** A pushed value at its version: applied only if newer than what the console shows. */
export function pushValue<T>(target: SetAtom<LiveValue<T>>, value: T, version: number): void {
  store.set(target, (current) => applyVersioned(current, value, version));
}

/** Fetches a value, labelled when the fetch starts; `failure` null: the panel reports its own errors. */
export async function fetchValue<T>(target: SetAtom<LiveValue<T>>, fetcher: () => Promise<T>, failure: string | null): Promise<void> {
  const started = label();
  try {
    const value = await fetcher();
    store.set(target, (current) => applyVersioned(current, value, started));
  } catch (error) {
    if (failure) showFailure(failure, error);
  }
}

// ---- what a tab fetches itself -------------------------------------------------------------

/**
 * A tab's own fetch (a filtered page, the journal, the leaderboard), made again whenever its
 * filter changes, a push bears on it (`version`) or the console reconnects. The answer to a fetch that a newer one
 * replaced is dropped, so a slow, stale answer never undoes a newer one; while the newer one is
 * on its way the tab keeps showing the last answer for the same filter (a new filter shows
 * "loading").
 */
export function useLiveFetch<T>(load: () => Promise<T>, filter: string, version: number, failure: string): { value: T | null; error: string | null } {
  const [state, setState] = useState<{ filter: string; value: T | null; error: string | null }>({ filter, value: null, error: null });
  const reconnects = useAtomValue(reconnectsAtom, { store });
  useEffect(() => {
    let current = true;
    load().then(
      (value) => {
        if (current) setState({ filter, value, error: null });
      },
      (error: unknown) => {
        if (!current) return;
        setState((s) => ({ filter, value: s.filter === filter ? s.value : null, error: reasonOf(error) }));
        showFailure(failure, error);
      },
    );
    return () => {
      current = false;
    };
    // `load` is a new function every render; the filter and the version say when it means something new.
  }, [filter, version, reconnects, failure]);
  return state.filter === filter ? { value: state.value, error: state.error } : { value: null, error: null };
}
