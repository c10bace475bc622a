/**
 * The one way a page shows data it fetched: its failure (with the server's reason), "loading"
 * until the first answer, a sentence when there is nothing, or the data; and the one table
 * frame (scrolling wrapper, column headers). Styles in data-view.css.
 */
import type { ReactNode } from 'react';
import { numberOf } from '../lib/count.ts';
import { ErrorBox } from './FormParts.tsx';
import './data-view.css';

export function DataView<T>(props: {
  /** null until the first answer. */
  value: readonly T[] | null;
  error: string | null;
  /** What there is when the list is empty ("No API tokens yet."). */
  empty: ReactNode;
  loading?: ReactNode;
  children: (items: readonly T[]) => ReactNode;
}) {
  const { value, error, empty, loading = 'Loading…', children } = props;
  return (
    <>
      <ErrorBox error={error} />
      {value === null ? error ? null : <p className="empty">{loading}</p> : value.length === 0 ? <p className="empty">{empty}</p> : children(value)}
    </>
  );
}

/** A column header: its text, or its text and a class (a narrow thumbnail column). */
export type Column = string | { label: string; className: string };

/** A table in its scrolling frame; `children` is its body (rows, or a virtualized tbody). */
export function Table({ columns, children, label }: { columns: readonly Column[]; children: ReactNode; label?: string }) {
  return (
    <div className="table-wrap">
      <table className="table" aria-label={label}>
        <thead>
          <tr>
            {columns.map((column) =>
              typeof column === 'string' ? (
                <th key={column} scope="col">
                  {column}
                </th>
              ) : (
                <th key={column.label} scope="col" className={column.className}>
                  {column.label}
                </th>
              ),
            )}
          </tr>
        </thead>
        {children}
      </table>
    </div>
  );
}

/** The one "Show more" under a paged list, with how many are left when that is known. */
export function ShowMore({ onMore, loading, left, small }: { onMore: () => void; loading: boolean; left?: number | null; small?: boolean }) {
  return (
    <div className="list-more">
      <button type="button" className={`button button--ghost${small ? ' button--small' : ''}`} onClick={onMore} disabled={loading}>
        {loading ? 'Loading…' : left == null ? 'Show more' : `Show more (${numberOf(Math.max(0, left))} left)`}
      </button>
    </div>
  );
}
