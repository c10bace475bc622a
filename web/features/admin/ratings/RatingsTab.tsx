/**
 * Ratings: what anonymous raters said lately (reliability-weighted score, confidence), the
 * weekly leaderboard, how much each rater's word counts and why (agreement, standing), and the
 * items still waiting for judgements with their reason — all refreshed as answers arrive.
 */
import { useAtomValue } from 'jotai';
import { Link } from 'react-router-dom';
import { DataView } from '../../../components/DataView.tsx';
import { countOf } from '../../../lib/count.ts';
import { store } from '../../../lib/store.ts';
import { evaluationColor, evaluatorLabel } from '../../evaluate/evaluate-rules.ts';
import { adminApi } from '../admin-api.ts';
import { useLiveFetch } from '../live/live.ts';
import { ratingsNewsAtom } from './ratings.live.ts';
import './ratings.css';

const RECENT_SHOWN = 5;

export default function RatingsTab() {
  const news = useAtomValue(ratingsNewsAtom, { store });
  const recent = useLiveFetch(adminApi.recentEvaluations, 'recent', news, 'Failed to load recent evaluations');
  const board = useLiveFetch(adminApi.leaderboard, 'board', news, 'Failed to load the leaderboard');
  const raters = useLiveFetch(adminApi.raters, 'raters', news, 'Failed to load the raters');
  const waiting = useLiveFetch(adminApi.waitingItems, 'waiting', news, 'Failed to load the waiting items');
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
        <DataView value={recent.value} error={recent.error} empty="No ratings yet. Share /admin/evaluate with your raters.">
          {(recent) => (
          <ul className="rating-list">
            {recent.slice(0, RECENT_SHOWN).map((r) => (
              <li key={r.streamId}>
                <strong>{r.streamName}</strong>
                <span className={`grade--${evaluationColor(r.weightedScore)}`}>{r.weightedScore.toFixed(1)} / 5</span>
                <span>{Math.round(r.confidence * 100)}% confidence</span>
                <span>{countOf(r.evaluationCount, ['rating', 'ratings'])}</span>
              </li>
            ))}
          </ul>
          )}
        </DataView>
      </section>
      <div className="ratings-columns">
        <section className="panel" aria-labelledby="leaderboard-title">
          <h2 id="leaderboard-title">This week's raters</h2>
          <DataView value={board.value} error={board.error} empty="Nobody has rated this week.">
            {(board) => (
              <ol className="rating-list">
                {board.map((entry) => (
                  <li key={entry.evaluator}>
                    <strong>{evaluatorLabel(entry.evaluator)}</strong>
                    <span>{countOf(entry.count, ['rating', 'ratings'])}</span>
                  </li>
                ))}
              </ol>
            )}
          </DataView>
        </section>
        <section className="panel" aria-labelledby="reliability-title">
          <h2 id="reliability-title">Rater reliability</h2>
          <p className="panel__hint">
            A rater who agrees with the others weighs more; one who always presses the same key, or guesses, weighs little. New raters start low and first get
            streams whose answer is known (checks). Trusted raters get the contested streams first.
          </p>
          <DataView value={raters.value} error={raters.error} empty="No rater has rated yet.">
            {(raters) => (
              <ul className="rating-list">
                {raters.slice(0, 12).map((r) => (
                  <li key={r.evaluator}>
                    <strong>{evaluatorLabel(r.evaluator)}</strong>
                    <span>weight {r.weight.toFixed(2)}</span>
                    <span title="How well their answers agree with everyone else's">{Math.round(r.agreement * 100)}% agreement</span>
                    <span className={`badge ${r.standing === 'trusted' ? 'badge--default' : 'badge--muted'}`}>{STANDING[r.standing]}</span>
                    <span>{countOf(r.ratings, ['answer', 'answers'])}</span>
                  </li>
                ))}
              </ul>
            )}
          </DataView>
        </section>
      </div>
      <section className="panel" aria-labelledby="waiting-title">
        <h2 id="waiting-title">Waiting for judgements</h2>
        <p className="panel__hint">
          A stream stays here until its human confidence reaches the target from established raters (or 12 answers were spent on it); pairs are asked
          where two scores are close and unsure.
        </p>
        <DataView value={waiting.value} error={waiting.error} empty="Nothing is waiting: every stream's human score is settled.">
          {(items) => (
            <ul className="rating-list">
              {items.slice(0, 15).map((w) => (
                <li key={w.queueId}>
                  <strong>{w.partnerName ? `${w.streamName} or ${w.partnerName}` : w.streamName}</strong>
                  <span className={`badge ${w.reason === 'Raters disagree' ? 'badge--warn' : 'badge--muted'}`}>{w.reason}</span>
                  <span>{Math.round(w.confidence * 100)}% confidence</span>
                  <span>{countOf(w.answers, ['answer', 'answers'])}</span>
                </li>
              ))}
            </ul>
          )}
        </DataView>
      </section>
    </>
  );
}

const STANDING = { new: 'New', regular: 'Regular', trusted: 'Trusted' } as const;
