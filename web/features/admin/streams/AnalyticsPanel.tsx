/** The whole pool at a glance, counted by the server: by category and grade, a score histogram, analysed and active counts. */
import { useAtomValue } from 'jotai';
import { CategoryLabel } from '../../../components/Badges.tsx';
import type { Category } from '../../../../src/shared/constants.ts';
import { numberOf } from '../../../lib/count.ts';
import { store } from '../../../lib/store.ts';
import { GRADE_LABELS } from './stream-filters.ts';
import { poolAnalyticsAtom } from './streams.live.ts';
import './streams.css';

export function AnalyticsPanel() {
  const a = useAtomValue(poolAnalyticsAtom, { store });
  if (!a) {
    return (
      <section className="panel" aria-labelledby="analytics-title">
        <div className="panel__header">
          <h2 id="analytics-title">Stream analytics</h2>
        </div>
        <p className="empty">Loading…</p>
      </section>
    );
  }
  const peak = Math.max(1, ...a.histogram);
  return (
    <section className="panel" aria-labelledby="analytics-title">
      <div className="panel__header">
        <h2 id="analytics-title">Stream analytics</h2>
      </div>
      <div className="analytics">
        <div className="stat">
          <span className="stat__label">Streams</span>
          <span className="stat__value">{numberOf(a.found)}</span>
          <ul className="stat__rows">
            <li>
              <span>Active</span> <strong>{numberOf(a.active)}</strong>
            </li>
            <li>
              <span>Inactive</span> <strong>{numberOf(a.inactive)}</strong>
            </li>
            <li>
              <span>Analyzed</span> <strong>{numberOf(a.analyzed)}</strong>
            </li>
            <li>
              <span>Pending analysis</span> <strong>{numberOf(a.pending)}</strong>
            </li>
          </ul>
        </div>
        <div className="stat">
          <span className="stat__label">By category</span>
          <ul className="stat__rows">
            {Object.entries(a.by_category)
              .sort((x, y) => y[1] - x[1])
              .map(([category, count]) => (
                <li key={category}>
                  <CategoryLabel category={category as Category} /> <strong>{numberOf(count)}</strong>
                </li>
              ))}
          </ul>
        </div>
        <div className="stat">
          <span className="stat__label">By grade</span>
          <ul className="stat__rows">
            {GRADE_LABELS.map(([key, label]) => (
              <li key={key}>
                <span>{label}</span> <strong>{numberOf(a.by_grade[key])}</strong>
              </li>
            ))}
          </ul>
        </div>
        <div className="stat histogram">
          <span className="stat__label">Quality score distribution</span>
          {a.analyzed === 0 && <span className="histogram__empty">No stream has a quality score yet.</span>}
          <svg viewBox="0 0 100 40" preserveAspectRatio="none" role="img" aria-label={`Scores from 0 to 100 in tens: ${a.histogram.join(', ')}`}>
            {a.histogram.map((count, i) => (
              <rect key={i} className="histogram__bar" x={i * 10 + 1} width={8} y={40 - (count / peak) * 38} height={(count / peak) * 38} rx={1} />
            ))}
          </svg>
          <div className="histogram__axis" aria-hidden="true">
            <span>0</span>
            <span>50</span>
            <span>100</span>
          </div>
        </div>
      </div>
    </section>
  );
}
