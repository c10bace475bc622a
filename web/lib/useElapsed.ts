import { useEffect, useState } from 'react';

/** True once `active` has stayed true for `ms` (reset when it goes false or `resetKey` changes). */
export function useElapsed(active: boolean, ms: number, resetKey: unknown = null): boolean {
  const [elapsed, setElapsed] = useState(false);
  useEffect(() => {
    setElapsed(false);
    if (!active) return;
    const timer = setTimeout(() => setElapsed(true), ms);
    return () => clearTimeout(timer);
  }, [active, ms, resetKey]);
  return active && elapsed;
}
