/** A row's re-analyze button: spinning while its analysis runs, cleared about 2 s after it is done, at once on failure. */
import { useAtomValue } from 'jotai';
import { useEffect, useRef, useState } from 'react';
import type { StreamDto } from '../../../../src/shared/api/index.ts';
import { RefreshIcon } from '../../../components/icons.tsx';
import { store } from '../../../lib/store.ts';
import { adminApi } from '../admin-api.ts';
import { useMay } from '../access.ts';
import { analyzingAtom, lastAnalysisAtom } from './quality.live.ts';
import { showFailure } from '../feedback.ts';

const CLEAR_AFTER_MS = 2_000;

export function ReanalyzeButton({ stream }: { stream: StreamDto }) {
  const analyzing = useAtomValue(analyzingAtom, { store }).get(stream.id)?.value === true;
  const last = useAtomValue(lastAnalysisAtom, { store }).get(stream.id)?.value;
  const [asked, setAsked] = useState<number | null>(null);
  const may = useMay();
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  // The analysis asked for has landed: keep spinning a moment so the click is seen to have worked.
  useEffect(() => {
    if (asked !== null && last && Date.parse(last.created_at) >= asked - 1000) {
      timer.current = setTimeout(() => setAsked(null), CLEAR_AFTER_MS);
    }
    return () => clearTimeout(timer.current);
  }, [last, asked]);

  async function run() {
    setAsked(Date.now());
    try {
      const { analysis } = await adminApi.analyzeStream(stream.id);
      if (analysis) timer.current = setTimeout(() => setAsked(null), CLEAR_AFTER_MS);
    } catch (failure) {
      setAsked(null);
      showFailure(`Failed to analyze "${stream.name}"`, failure);
    }
  }

  const busy = analyzing || asked !== null;
  return (
    <button type="button" className={`icon-button${busy ? ' icon-button--busy' : ''}`} onClick={() => void run()} disabled={busy} aria-label={busy ? `Analyzing ${stream.name}` : `Re-analyze ${stream.name}`} {...may.button('quality.analyze')}>
      {busy ? <span className="spinner spinner--small" aria-hidden="true" /> : <RefreshIcon />}
    </button>
  );
}
