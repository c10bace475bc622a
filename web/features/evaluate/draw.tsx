/**
 * Drawing the next item for a rater (a stream to rate, or a pair to compare): loading, the
 * queue's empty answer (404), a failure with Try again, or the item and when it was shown — and
 * what the stage says in the first three.
 */
import { useCallback, useState } from 'react';
import { ApiError } from '../../lib/api.ts';

export type Draw<T> = { phase: 'loading' } | { phase: 'empty' } | { phase: 'error'; message: string } | { phase: 'showing'; item: T; shownAt: number };

export function useDraw<T>(fetchNext: () => Promise<T>, failure: (error: unknown) => string): { state: Draw<T>; loadNext: () => Promise<void> } {
  const [state, setState] = useState<Draw<T>>({ phase: 'loading' });
  const loadNext = useCallback(async () => {
    setState({ phase: 'loading' });
    try {
      const item = await fetchNext();
      setState({ phase: 'showing', item, shownAt: Date.now() });
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) setState({ phase: 'empty' });
      else setState({ phase: 'error', message: failure(error) });
    }
  }, [fetchNext, failure]);
  return { state, loadNext };
}

/** The stage while nothing is shown; nothing once an item is. */
export function DrawMessage<T>({ state, loading, empty, onRetry }: { state: Draw<T>; loading: string; empty: string; onRetry: () => void }) {
  if (state.phase === 'loading') {
    return (
      <p className="evaluate__message" role="status">
        <span className="spinner" aria-hidden="true" /> {loading}
      </p>
    );
  }
  if (state.phase === 'empty') {
    return (
      <p className="evaluate__message" role="status">
        {empty}
      </p>
    );
  }
  if (state.phase === 'error') {
    return (
      <div className="evaluate__message" role="alert">
        <p>{state.message}</p>
        <button type="button" className="button button--small" onClick={onRetry}>
          Try again
        </button>
      </div>
    );
  }
  return null;
}
