/**
 * /admin/evaluate (spec §2, §8, §9): anonymous raters watch one stream at a time in the real
 * player and rate it 1–5 (Poor … Excel) or skip it; keys 1–5, Space or →, S for the stats panel.
 * Or, in "Compare two" (?mode=compare, issue 33), say which of two streams looks better (Compare.tsx).
 * The queue's size and today's count move with the hub's pushes; the 30 s poll is a safety net.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { EvaluationItemDto, EvaluatorStatsDto, QueueStatusDto } from '../../../src/shared/api/index.ts';
import { Brand } from '../../components/Brand.tsx';
import { Player } from '../../components/Player/Player.tsx';
import { CategoryLabel } from '../../components/Badges.tsx';
import { call, narrow as as } from '../../lib/api.ts';
import { openSocket } from '../../lib/socket.ts';
import { keyAction, progressPercent, RATING_LABELS } from './evaluate-rules.ts';
import { Compare } from './Compare.tsx';
import { DrawMessage, useDraw } from './draw.tsx';
import './evaluate.css';

const POLL_MS = 30_000;
const NO_STREAMS = 'No streams available for evaluation. Check back later!';
const loadFailure = () => 'Failed to load stream. Please try again.';

function evaluatorId(): string {
  const key = 'nw-evaluator';
  const known = sessionStorage.getItem(key);
  if (known) return known;
  const id = `evaluator_${crypto.randomUUID()}`;
  sessionStorage.setItem(key, id);
  return id;
}

type Mode = 'rate' | 'compare';
const modeOf = (): Mode => (new URLSearchParams(window.location.search).get('mode') === 'compare' ? 'compare' : 'rate');

export function EvaluatePage() {
  const [evaluator] = useState(evaluatorId);
  const [mode, setMode] = useState<Mode>(modeOf);
  const [status, setStatus] = useState<QueueStatusDto | null>(null);
  const [stats, setStats] = useState<EvaluatorStatsDto | null>(null);
  const [showStats, setShowStats] = useState(false);
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const busyRef = useRef(false);

  const loadStatus = useCallback(() => {
    as<QueueStatusDto>(call('evaluation.read', { query: { action: 'queue-status' } })).then(setStatus, () => undefined);
  }, []);
  const loadStats = useCallback(() => {
    as<EvaluatorStatsDto>(call('evaluation.read', { query: { action: 'stats', evaluatorId: evaluator } })).then(setStats, () => undefined);
  }, [evaluator]);

  const fetchNext = useCallback(() => as<EvaluationItemDto>(call('evaluation.read', { query: { action: 'next', evaluatorId: evaluator } })), [evaluator]);
  const { state, loadNext } = useDraw(fetchNext, loadFailure);

  const chooseMode = (next: Mode) => {
    setMode(next);
    const url = new URL(window.location.href);
    if (next === 'compare') url.searchParams.set('mode', 'compare');
    else url.searchParams.delete('mode');
    window.history.replaceState(window.history.state, '', url);
  };
  const toggleStats = useCallback(() => setShowStats((v) => !v), []);

  useEffect(() => {
    if (mode === 'rate') void loadNext();
  }, [mode, loadNext]);

  useEffect(() => {
    loadStatus();
    loadStats();
    const timer = setInterval(loadStatus, POLL_MS);
    const client = openSocket({ registration: { kind: 'rater', name: 'Quality evaluation' }, onMessage: () => undefined, onError: () => undefined });
    client.socket.on('evaluation:queue', (payload) => setStatus(payload));
    return () => {
      clearInterval(timer);
      client.close();
    };
  }, [loadStatus, loadStats]);

  const send = useCallback(
    async (rating: number | null) => {
      if (state.phase !== 'showing' || busyRef.current) return;
      busyRef.current = true;
      setBusy(true);
      setNotice(null);
      const base = { queueId: state.item.queueId, evaluatorId: evaluator, durationMs: Date.now() - state.shownAt };
      // The one rating stands for every sub-score (spec §5).
      const body = rating === null ? { ...base, skipped: true as const } : { ...base, videoQuality: rating, movement: rating, content: rating, audio: rating, overall: rating };
      try {
        await call('evaluation.submit', { query: { action: rating === null ? 'skip' : 'submit' }, body });
        loadStats();
        await loadNext();
      } catch {
        setNotice(rating === null ? 'Failed to skip stream. Please try again.' : 'Failed to submit evaluation. Please try again.');
      } finally {
        busyRef.current = false;
        setBusy(false);
      }
    },
    [state, evaluator, loadNext, loadStats],
  );

  useEffect(() => {
    if (mode !== 'rate') return; // comparing has keys of its own (Compare.tsx)
    const onKey = (event: KeyboardEvent) => {
      if (event.target instanceof HTMLInputElement || event.target instanceof HTMLTextAreaElement || event.metaKey || event.ctrlKey || event.altKey) return;
      const action = keyAction(event.key);
      if (!action) return;
      event.preventDefault();
      if (action.kind === 'stats') setShowStats((v) => !v);
      else if (action.kind === 'skip') void send(null);
      else void send(action.value);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [send, mode]);

  const percent = status ? progressPercent(status) : 0;
  return (
    <main className="evaluate">
      <header className="evaluate__header">
        <Brand />
        <h1>Quality Evaluation</h1>
        <p>
          {mode === 'rate'
            ? 'Watch each stream for 10–30 seconds, then rate its picture: 1–5 on your keyboard, Space or → to skip, S for your stats.'
            : 'Watch both for 10–30 seconds, then say which picture looks better: ← or →, = if about the same, Space to skip, S for your stats.'}
        </p>
      </header>

      <div className="evaluate__modes" role="group" aria-label="How to answer">
        <button type="button" aria-pressed={mode === 'rate'} onClick={() => chooseMode('rate')}>
          Rate one
        </button>
        <button type="button" aria-pressed={mode === 'compare'} onClick={() => chooseMode('compare')}>
          Compare two
        </button>
      </div>

      <section className="evaluate__queue" aria-label="Queue">
        <span>
          <strong>{status?.pending ?? '—'}</strong> in queue
        </span>
        <span>
          <strong data-testid="done-today">{status?.completedToday ?? '—'}</strong> done today
        </span>
        <progress max={100} value={percent} aria-label={`Today's progress: ${percent}%`} />
        <span>{percent}%</span>
      </section>

      <section className="evaluate__stage">
        {mode === 'compare' && <Compare evaluator={evaluator} onAnswered={loadStats} onStats={toggleStats} />}
        {mode === 'rate' && <DrawMessage state={state} loading="Loading the next stream…" empty={NO_STREAMS} onRetry={() => void loadNext()} />}
        {mode === 'rate' && state.phase === 'showing' && (
          <>
            <div className="evaluate__player">
              <Player stream={{ id: state.item.streamId, name: state.item.streamName, url: state.item.streamUrl, fallback_url: state.item.fallbackUrl }} fit="contain" />
            </div>
            <div className="evaluate__meta">
              <h2>{state.item.streamName}</h2>
              <CategoryLabel category={state.item.category} />
              <span className="badge badge--muted">Priority {state.item.priority}</span>
              <span>{state.item.reason}</span>
              <span>
                {state.item.previousEvaluations} previous {state.item.previousEvaluations === 1 ? 'evaluation' : 'evaluations'}
              </span>
            </div>
            <div className="evaluate__buttons" role="group" aria-label="Rate this stream">
              {RATING_LABELS.map((label, i) => (
                <button key={label} type="button" className={`evaluate__rate evaluate__rate--${i + 1}`} disabled={busy} onClick={() => void send(i + 1)} aria-keyshortcuts={String(i + 1)}>
                  <strong>{i + 1}</strong>
                  <span>{label}</span>
                </button>
              ))}
              <button type="button" className="button button--ghost" disabled={busy} onClick={() => void send(null)} aria-keyshortcuts="Space ArrowRight">
                Skip
              </button>
            </div>
            {notice && (
              <p className="error-box" role="alert">
                {notice}
              </p>
            )}
          </>
        )}
      </section>

      {showStats && (
        <section className="evaluate__stats" aria-label="Your stats">
          <h2>Your stats</h2>
          {stats ? (
            <dl>
              <div><dt>Evaluations</dt><dd>{stats.totalEvaluations}</dd></div>
              <div><dt>Today</dt><dd>{stats.evaluationsToday}</dd></div>
              <div><dt>This week</dt><dd>{stats.evaluationsThisWeek}</dd></div>
              <div><dt>Streams</dt><dd>{stats.streamsEvaluated}</dd></div>
              <div><dt>Average time</dt><dd>{(stats.averageTimeMs / 1000).toFixed(1)} s</dd></div>
              <div><dt>Skip rate</dt><dd>{Math.round(stats.skipRate * 100)}%</dd></div>
            </dl>
          ) : (
            <p>Loading…</p>
          )}
        </section>
      )}
    </main>
  );
}
