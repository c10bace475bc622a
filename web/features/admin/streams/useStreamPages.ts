/**
 * A view's pages of the server's stream list (search, filters, sort: the one rule, on the
 * server): the first page when the query changes or streams come and go, then "Show more"
 * appends the next. Rows are read from the streams' cache, so pushes change them in place and a
 * deleted stream leaves its row at once.
 */
import { useAtomValue } from 'jotai';
import { useEffect, useMemo, useState } from 'react';
import type { StreamDto } from '../../../../src/shared/api/index.ts';
import { store } from '../../../lib/store.ts';
import { reasonOf, showFailure } from '../feedback.ts';
import { fetchStreamPage, poolVersionAtom, streamRecordsAtom, type StreamQuery } from './streams.live.ts';

interface Pages {
  key: string;
  ids: number[];
  next: string | null;
  total: number | null;
  capped: boolean;
}

export interface StreamPages {
  /** null while the first page loads. */
  rows: StreamDto[] | null;
  error: string | null;
  /** Matches in the pool (first page's count; null for a search, which is not counted). */
  total: number | null;
  capped: boolean;
  hasMore: boolean;
  loadingMore: boolean;
  showMore: () => void;
}

export function useStreamPages(query: StreamQuery): StreamPages {
  const poolVersion = useAtomValue(poolVersionAtom, { store });
  const records = useAtomValue(streamRecordsAtom, { store });
  const key = JSON.stringify(query);
  const [pages, setPages] = useState<Pages | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [loadingMore, setLoadingMore] = useState(false);

  useEffect(() => {
    let current = true;
    fetchStreamPage(query).then(
      (page) => {
        if (!current) return;
        setPages({ key, ids: page.streams.map((s) => s.id), next: page.next_cursor, total: page.total, capped: page.total_capped });
        setError(null);
      },
      (failure: unknown) => {
        if (!current) return;
        setError(reasonOf(failure));
        showFailure('Failed to fetch streams', failure);
      },
    );
    return () => {
      current = false;
    };
    // `query` is a new object every render; its key says when it is a new query.
  }, [key, poolVersion]);

  const shown = pages && pages.key === key ? pages : null;
  const rows = useMemo(
    () => (shown ? shown.ids.flatMap((id) => { const value = records.get(id)?.value; return value ? [value] : []; }) : null),
    [shown, records],
  );

  function showMore(): void {
    if (!shown?.next || loadingMore) return;
    setLoadingMore(true);
    fetchStreamPage({ ...query, cursor: shown.next })
      .then(
        (page) =>
          setPages((p) => {
          if (!p || p.key !== key) return p;
          const have = new Set(p.ids);
          return { ...p, ids: [...p.ids, ...page.streams.map((s) => s.id).filter((id) => !have.has(id))], next: page.next_cursor };
        }),
        (failure: unknown) => showFailure('Failed to load more streams', failure),
      )
      .finally(() => setLoadingMore(false));
  }

  return { rows, error, total: shown?.total ?? null, capped: shown?.capped ?? false, hasMore: Boolean(shown?.next), loadingMore, showMore };
}
