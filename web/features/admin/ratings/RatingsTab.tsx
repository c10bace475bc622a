/**
 * Ratings: what anonymous raters said lately (reliability-weighted score, confidence), the
 * weekly leaderboard, and how much each rater's word counts — all refreshed as ratings arrive.
 */
import { useAtomValue } from 'jotai';
import { Link } from 'react-router-dom';
import { ErrorBox } from '../../../components/FormParts.tsx';
import { store } from '../../../lib/store.ts';
import { evaluationColor, evaluatorLabel } from '../../evaluate/evaluate-rules.ts';
import { adminApi } from '../admin-api.ts';
import { ratingsVersionAtom } from '../atoms.ts';
import { useRemote } from '../useRemote.ts';

const RECENT_SHOWN = 5;

export default function RatingsTab() {
  const version = String(useAtomValue(ratingsVersionAtom, { store }));
  const recent = useRemote(adminApi.recentEvaluations, version, 'Failed to load recent evaluations');
  const board = useRemote(adminApi.leaderboard, version, 'Failed to load the leaderboard');
  const raters = useRemote(adminApi.raters, version, 'Failed to load the raters');
  return (
    <>
      <section className="panel" aria-labelledby="recent-ratings-title">
        <div className="panel__header">
          <h2 id="recent-ratings-title">Recent evaluations</h2>
          <Link className="button button--ghost button--small" to="/admin/evaluate">
            Open the evaluation screen
          </Link>
        </div>
        <p className="panel__hint">Scores are weighted by each rater's reliability (agreement with the others) and fused with the automatic analysis into the stream's quality score.</p>
        <ErrorBox error={recent.error} />
        {recent.value === null ? (
          <p className="empty">Loading…</p>
        ) : recent.value.length === 0 ? (
          <p className="empty">No ratings yet. Share /admin/evaluate with your raters.</p>
        ) : (
          <ul className="rating-list">
            {recent.value.slice(0, RECENT_SHOWN).map((r) => (
              <li key={r.streamId}>
                <strong>{r.streamName}</strong>
                <span className={`grade--${evaluationColor(r.weightedScore)}`}>{r.weightedScore.toFixed(1)} / 5</span>
                <span>{Math.round(r.confidence * 100)}% confidence</span>
                <span>
                  {r.evaluationCount} {r.evaluationCount === 1 ? 'rating' : 'ratings'}
                </span>
              </li>
            ))}
          </ul>
        )}
      </section>
      <div className="ratings-columns">
        <section className="panel" aria-labelledby="leaderboard-title">
          <h2 id="leaderboard-title">This week's raters</h2>
          <ErrorBox error={board.error} />
          {board.value && board.value.length === 0 && <p className="empty">Nobody has rated this week.</p>}
          {board.value && board.value.length > 0 && (
            <ol className="rating-list">
              {board.value.map((entry) => (
                <li key={entry.evaluator}>
                  <strong>{evaluatorLabel(entry.evaluator)}</strong>
                  <span>{entry.count} ratings</span>
                </li>
              ))}
            </ol>
          )}
        </section>
        <section className="panel" aria-labelledby="reliability-title">
          <h2 id="reliability-title">Rater reliability</h2>
          <p className="panel__hint">A rater who agrees with the others weighs more; one who always presses the same key, or guesses, weighs little. New raters start low.</p>
          <ErrorBox error={raters.error} />
          {raters.value && raters.value.length > 0 && (
            <ul className="rating-list">
              {raters.value.slice(0, 12).map((r) => (
                <li key={r.evaluator}>
                  <strong>{evaluatorLabel(r.evaluator)}</strong>
                  <span>weight {r.weight.toFixed(2)}</span>
                  <span>{r.ratings} ratings</span>
                </li>
              ))}
            </ul>
          )}
        </section>
      </div>
    </>
  );
}
