/** A list loaded over REST whenever `key` changes (a filter, a push's version); failures shown. */
import { useEffect, useState } from 'react';
import { reasonOf, showFailure } from './feedback.ts';

export function useRemote<T>(load: () => Promise<T>, key: string, failure: string): { value: T | null; error: string | null } {
  const [value, setValue] = useState<T | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    load().then(
      (result) => {
        if (!live) return;
        setValue(result);
        setError(null);
      },
      (problem: unknown) => {
        if (!live) return;
        setError(reasonOf(problem));
        showFailure(failure, problem);
      },
    );
    return () => {
      live = false;
    };
    // `load` is a new function every render; `key` says when it means something new.
  }, [key, failure]);
  return { value, error };
}
