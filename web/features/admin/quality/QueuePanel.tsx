/**
 * The analysis queue beside 'Re-Analyze All': how many analyses wait in each lane (highest
 * priority first, empty lanes left out), how many run, and how many finished in the last
 * minute, cluster-wide. Fed by the queue's pushes; loaded once when the console opens.
 */
import { useAtomValue } from 'jotai';
import { LANE_LABELS, QUEUE_LANES } from '../../../../src/shared/quality/queue.ts';
import { store } from '../../../lib/store.ts';
import { numberOf as count } from '../../../lib/count.ts';
import { valueOf } from '../live/live.ts';
import { qualityQueueAtom } from './quality.live.ts';
import './quality.css';

export function QueuePanel() {
  const queue = valueOf(useAtomValue(qualityQueueAtom, { store }));
  if (!queue) return null;
  const waiting = QUEUE_LANES.reduce((sum, lane) => sum + queue.waiting[lane], 0);
  const idle = waiting === 0 && queue.running === 0;
  return (
    <div className="queue-panel" role="status" aria-label="Analysis queue">
      <span className="queue-panel__title">Analysis queue</span>
      {idle ? (
        <span className="queue-panel__idle">Idle{queue.per_minute > 0 ? ` · ${count(queue.per_minute)} in the last minute` : ''}</span>
      ) : (
        <>
          <span>
            <strong>{count(queue.running)}</strong> running
          </span>
          <span>
            <strong>{count(waiting)}</strong> waiting
          </span>
          <span>
            <strong>{count(queue.per_minute)}</strong>/min
          </span>
          <ul className="queue-panel__lanes" aria-label="Waiting by priority">
            {QUEUE_LANES.filter((lane) => queue.waiting[lane] > 0).map((lane) => (
              <li key={lane} className={`queue-lane queue-lane--${lane}`} data-lane={lane}>
                {LANE_LABELS[lane]} <strong>{count(queue.waiting[lane])}</strong>
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}
