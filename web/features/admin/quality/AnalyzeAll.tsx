/** 'Re-Analyze All' and its live progress: done/total from the pushes, failures listed by name. */
import { useAtomValue } from 'jotai';
import { useState } from 'react';
import { store } from '../../../lib/store.ts';
import { adminApi } from '../admin-api.ts';
import { useMay } from '../access.ts';
import { countOf } from '../../../lib/count.ts';
import { valueOf } from '../live/live.ts';
import { qualityRunAtom, runFailuresAtom, startedRun } from './quality.live.ts';
import { showFailure, showSuccess } from '../feedback.ts';
import './quality.css';

export function AnalyzeAllButton() {
  const run = valueOf(useAtomValue(qualityRunAtom, { store }));
  const [asking, setAsking] = useState(false);
  const may = useMay();
  const running = asking || (run !== null && run.finished_at === null);
  async function start() {
    setAsking(true);
    try {
      const { run: started } = await adminApi.analyzeAll();
      startedRun(started);
      showSuccess(`Analyzing ${countOf(started.total, ['active stream', 'active streams'])}`);
    } catch (failure) {
      showFailure('Failed to start the analysis of all streams', failure);
    } finally {
      setAsking(false);
    }
  }
  return (
    <button type="button" className="button button--ghost button--small" onClick={() => void start()} disabled={running} {...may.button('quality.analyze')}>
      {running ? 'Analyzing…' : 'Re-Analyze All'}
    </button>
  );
}

export function AnalyzeAllProgress() {
  const run = valueOf(useAtomValue(qualityRunAtom, { store }));
  const failures = useAtomValue(runFailuresAtom, { store });
  if (!run || (run.finished_at !== null && Date.now() - Date.parse(run.finished_at) > 10 * 60_000 && failures.length === 0)) return null;
  const done = run.finished_at !== null;
  return (
    <div className="run-progress" role="status" aria-live="polite">
      <div className="run-progress__line">
        <span>
          {done ? 'Analysis of all streams finished' : 'Analyzing all streams'}: <strong>{run.done}</strong> of {run.total}
          {run.failed > 0 ? ` · ${run.failed} failed` : ''}
        </span>
        <progress max={Math.max(run.total, 1)} value={run.done} aria-label="Streams analyzed" />
      </div>
      {failures.length > 0 && (
        <ul className="run-progress__failures" aria-label="Failed analyses">
          {failures.slice(-8).map((f) => (
            <li key={`${f.stream_id}-${f.error}`}>
              <strong>{f.name}</strong>: {f.error}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
