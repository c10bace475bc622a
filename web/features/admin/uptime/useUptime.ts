/**
 * A screen's or a stream's uptime, fetched for the view that shows it and fetched again every
 * five minutes, when the console reconnects, and when `version` moves (a screen going on- or
 * offline). It fails quietly: a strip per row must not raise a toast per row.
 */
import { useAtomValue } from 'jotai';
import { useEffect, useRef, useState } from 'react';
import type { UptimeDto } from '../../../../src/shared/api/index.ts';
import { reasonOf } from '../../../lib/errors.ts';
import { store } from '../../../lib/store.ts';
import { adminApi } from '../admin-api.ts';
import { reconnectsAtom } from '../live/live.ts';

const REFRESH_MS = 5 * 60_000;
/** A screen that just connected may not be recorded yet when its row asks: asked again a few times. */
const RETRY_MS = 5_000;
const RETRIES = 3;

export type UptimeSubject = { kind: 'screen'; id: string } | { kind: 'stream'; id: number };

export function useUptime(subject: UptimeSubject, version: unknown = 0): { uptime: UptimeDto | null; error: string | null } {
  const [state, setState] = useState<{ key: string; uptime: UptimeDto | null; error: string | null }>({ key: '', uptime: null, error: null });
  const reconnects = useAtomValue(reconnectsAtom, { store });
  const key = `${subject.kind}:${subject.id}`;
  const [tick, setTick] = useState(0);
  const failures = useRef({ key, count: 0 });
  useEffect(() => {
    const timer = setInterval(() => setTick((t) => t + 1), REFRESH_MS);
    return () => clearInterval(timer);
  }, []);
  useEffect(() => {
    let current = true;
    let retry: ReturnType<typeof setTimeout> | undefined;
    if (failures.current.key !== key) failures.current = { key, count: 0 };
    const load = subject.kind === 'screen' ? adminApi.screenUptime(subject.id) : adminApi.streamUptime(subject.id);
    load.then(
      (uptime) => {
        if (!current) return;
        failures.current.count = 0;
        setState({ key, uptime, error: null });
      },
      (error: unknown) => {
        if (!current) return;
        setState((s) => ({ key, uptime: s.key === key ? s.uptime : null, error: reasonOf(error) }));
        if (++failures.current.count <= RETRIES) retry = setTimeout(() => setTick((t) => t + 1), RETRY_MS);
      },
    );
    return () => {
      current = false;
      clearTimeout(retry);
    };
    // The subject is named by `key`; the rest say when to ask again.
  }, [key, String(version), reconnects, tick]);
  return state.key === key ? { uptime: state.uptime, error: state.error } : { uptime: null, error: null };
}
