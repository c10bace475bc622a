/**
 * The streams' live slice. The console never holds the whole pool: views ask the server for the
 * pages they show (the stream table, the scene editor's available streams, the Live Wall
 * panel) and for the streams they name (a scene's slots, a screen's health), and every stream
 * they receive lands in one cache of records, merged with the stream pushes by the one rule —
 * so a row shows the newest state whichever came last. Creations and deletions move
 * `poolVersionAtom` (after a burst settles): paged views fetch their first page again.
 */
import { atom, useAtomValue } from 'jotai';
import { useEffect, useMemo } from 'react';
import type { StreamAnalyticsDto, StreamDto, StreamPageDto } from '../../../../src/shared/api/index.ts';
import type { Endpoints } from '../../../../src/shared/api/endpoints.ts';
import { applyFetch, applyPush, type LiveRecords } from '../../../../src/shared/live-records.ts';
import { call, narrow, type CallInput } from '../../../lib/api.ts';
import { store } from '../../../lib/store.ts';
import { showFailure } from '../feedback.ts';
import { label, type LiveSlice } from '../live/live.ts';

/** Every stream the console has fetched or been pushed, by id (deleted ones as tombstones). */
export const streamRecordsAtom = atom<LiveRecords<StreamDto>>(new Map());

/** The whole pool's counts (the analytics panel); null until loaded. */
export const poolAnalyticsAtom = atom<StreamAnalyticsDto | null>(null);

/** Moves when streams were created or deleted: paged views fetch their first page again. */
export const poolVersionAtom = atom(0);

/** Moves on every stream push (settled): counts under a filter are read again. */
export const streamsChangedAtom = atom(0);

/** Fetched streams into the cache, labelled with what the console had seen when the fetch started. */
function remember(streams: readonly StreamDto[], started: number): void {
  store.set(streamRecordsAtom, (records) => applyFetch(records, streams, (s) => s.id, started, false));
}

export type StreamQuery = NonNullable<CallInput<Endpoints['stream.list']>['query']>;

/** One page of the server's list (search, filters, sort, cursor), its streams remembered in the cache. */
export async function fetchStreamPage(query: StreamQuery): Promise<StreamPageDto> {
  const started = label();
  const page = await narrow<StreamPageDto>(call('stream.list', { query: { limit: 50, ...query } }));
  remember(page.streams, started);
  return page;
}

const asked = new Set<number>();

/** Fetches the streams named that the cache lacks (200 at a time); each is asked for once. */
function fetchMissing(ids: readonly number[]): void {
  const records = store.get(streamRecordsAtom);
  const missing = ids.filter((id) => !records.has(id) && !asked.has(id));
  for (let i = 0; i < missing.length; i += 200) {
    const chunk = missing.slice(i, i + 200);
    chunk.forEach((id) => asked.add(id));
    fetchStreamPage({ ids: chunk.join(','), limit: 200 }).then(
      (page) => {
        // Named but not found: deleted; a tombstone says so (and stops the asking).
        const found = new Set(page.streams.map((s) => s.id));
        store.set(streamRecordsAtom, (records) => chunk.reduce((r, id) => (found.has(id) || r.has(id) ? r : applyPush(r, id, null, 0)), records));
      },
      (error: unknown) => {
        chunk.forEach((id) => asked.delete(id));
        showFailure('Failed to fetch streams', error);
      },
    );
  }
}

/** The streams named (a scene's slots, a screen's health report), from the cache; missing ones are fetched. `null`: deleted. */
export function useStreamsById(ids: readonly number[]): ReadonlyMap<number, StreamDto | null> {
  const records = useAtomValue(streamRecordsAtom, { store });
  const wanted = ids.join(',');
  useEffect(() => fetchMissing(ids), [wanted]);
  return useMemo(() => {
    const found = new Map<number, StreamDto | null>();
    for (const id of ids) {
      const record = records.get(id);
      if (record) found.set(id, record.value);
    }
    return found;
  }, [records, wanted]);
}

function loadAnalytics(): void {
  call('stream.analytics').then(
    (analytics) => store.set(poolAnalyticsAtom, analytics),
    (error: unknown) => showFailure('Failed to load the stream analytics', error),
  );
}

/** A burst of pushes (an import adds hundreds a second) is answered once it settles. */
function settle(run: () => void, ms = 750): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return () => {
    clearTimeout(timer);
    timer = setTimeout(run, ms);
  };
}

const poolChanged = settle(() => store.set(poolVersionAtom, (n) => n + 1));
const anyChanged = settle(() => {
  store.set(streamsChangedAtom, (n) => n + 1);
  loadAnalytics();
});

export const streamsLive: LiveSlice = {
  name: 'streams',
  load() {
    loadAnalytics();
    store.set(poolVersionAtom, (n) => n + 1); // after a reconnect, paged views fetch again
  },
  listen(socket) {
    socket.on('stream:created', ({ version, stream }) => {
      store.set(streamRecordsAtom, (records) => applyPush(records, stream.id, stream, version));
      poolChanged();
      anyChanged();
    });
    socket.on('stream:updated', ({ version, stream }) => {
      store.set(streamRecordsAtom, (records) => applyPush(records, stream.id, stream, version));
      anyChanged();
    });
    socket.on('stream:deleted', ({ version, stream_id }) => {
      store.set(streamRecordsAtom, (records) => applyPush(records, stream_id, null, version));
      poolChanged();
      anyChanged();
    });
  },
};

/** Paged views fetch their first page again (after a write on a page without the live socket: the Live Wall panel). */
export const refreshStreamPages = () => store.set(poolVersionAtom, (n) => n + 1);

/** After this console's own write: the answer goes into the cache at once (its push will agree). */
export function rememberWritten(stream: StreamDto): void {
  remember([stream], label());
}

/**
 * After this console deleted a stream: its rows go at once. The deletion's own push carries a
 * version above every one seen so far, so half a step above them places the tombstone after
 * what the console knew and before that push (which agrees).
 */
export function forgetDeleted(id: number): void {
  store.set(streamRecordsAtom, (records) => applyPush(records, id, null, label() + 0.5));
}
