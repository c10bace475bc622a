/**
 * "Which looks better?" (issue 33): two streams side by side in the real player, leased to this
 * rater; ← / → choose a side, = says they look about the same, Space skips. People agree more on
 * which of two pictures is better than on a 1–5 score; the answers are fused with ratings in one
 * model on the server (src/shared/evaluation/judgements.ts).
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { PairItemDto } from '../../../src/shared/api/index.ts';
import { Player } from '../../components/Player/Player.tsx';
import { CategoryLabel } from '../../components/Badges.tsx';
import { ApiError, call, narrow as as } from '../../lib/api.ts';
import { compareKeyAction } from './evaluate-rules.ts';
import { DrawMessage, useDraw } from './draw.tsx';

type Choice = 'left' | 'right' | 'same' | 'skip';
const loadFailure = (error: unknown) => (error instanceof ApiError ? error.message : 'Failed to load a pair. Please try again.');

export function Compare({ evaluator, onAnswered, onStats }: { evaluator: string; onAnswered: () => void; onStats: () => void }) {
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const busyRef = useRef(false);

  const fetchNext = useCallback(() => as<PairItemDto>(call('evaluation.read', { query: { action: 'next-pair', evaluatorId: evaluator } })), [evaluator]);
  const { state, loadNext } = useDraw(fetchNext, loadFailure);

  useEffect(() => {
    void loadNext();
  }, [loadNext]);

  const answer = useCallback(
    async (choice: Choice) => {
      if (state.phase !== 'showing' || busyRef.current) return;
      busyRef.current = true;
      setBusy(true);
      setNotice(null);
      try {
        await call('evaluation.submit', { query: { action: 'compare' }, body: { queueId: state.item.queueId, evaluatorId: evaluator, choice, durationMs: Date.now() - state.shownAt } });
        onAnswered();
        await loadNext();
      } catch (error) {
        setNotice(error instanceof ApiError ? error.message : 'Failed to send your answer. Please try again.');
      } finally {
        busyRef.current = false;
        setBusy(false);
      }
    },
    [state, evaluator, loadNext, onAnswered],
  );

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.target instanceof HTMLInputElement || event.target instanceof HTMLTextAreaElement || event.metaKey || event.ctrlKey || event.altKey) return;
      const action = compareKeyAction(event.key);
      if (!action) return;
      event.preventDefault();
      if (action.kind === 'stats') onStats();
      else void answer(action.kind === 'skip' ? 'skip' : action.choice);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [answer, onStats]);

  if (state.phase !== 'showing') {
    return <DrawMessage state={state} loading="Loading the next pair…" empty="No pairs to compare right now. Rate single streams, or check back later!" onRetry={() => void loadNext()} />;
  }
  const pair = state.item;
  return (
    <>
      <h2 className="compare__question">Which looks better?</h2>
      <div className="compare">
        {(['left', 'right'] as const).map((side) => (
          <figure key={side} className="compare__side" aria-label={`${side === 'left' ? 'Left' : 'Right'}: ${pair[side].streamName}`}>
            <div className="evaluate__player">
              <Player stream={{ id: pair[side].streamId, name: pair[side].streamName, url: pair[side].streamUrl, fallback_url: pair[side].fallbackUrl }} fit="contain" />
            </div>
            <figcaption>
              <strong>{pair[side].streamName}</strong> <CategoryLabel category={pair[side].category} />
            </figcaption>
          </figure>
        ))}
      </div>
      <div className="evaluate__buttons" role="group" aria-label="Which looks better?">
        <button type="button" className="evaluate__rate evaluate__rate--4" disabled={busy} onClick={() => void answer('left')} aria-keyshortcuts="ArrowLeft">
          <strong>←</strong>
          <span>Left</span>
        </button>
        <button type="button" className="evaluate__rate evaluate__rate--3" disabled={busy} onClick={() => void answer('same')} aria-keyshortcuts="=">
          <strong>=</strong>
          <span>About the same</span>
        </button>
        <button type="button" className="evaluate__rate evaluate__rate--4" disabled={busy} onClick={() => void answer('right')} aria-keyshortcuts="ArrowRight">
          <strong>→</strong>
          <span>Right</span>
        </button>
        <button type="button" className="button button--ghost" disabled={busy} onClick={() => void answer('skip')} aria-keyshortcuts="Space">
          Skip
        </button>
      </div>
      {notice && (
        <p className="error-box" role="alert">
          {notice}
        </p>
      )}
    </>
  );
}
