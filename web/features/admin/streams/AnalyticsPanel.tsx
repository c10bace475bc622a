/** Streams at a glance: by category and grade, a score histogram, analysed and active counts. */
import type { StreamDto } from '../../../../src/shared/api/index.ts';
import { CategoryLabel } from '../../../components/Badges.tsx';
import type { Category } from '../../../../src/shared/constants.ts';
import { streamAnalytics } from '../rules.ts';

const BUCKETS: [string, string][] = [
  ['A', 'A (80+)'],
  ['B', 'B (60–79)'],
  ['C', 'C (40–59)'],
  ['failed', 'Failed (below 40)'],
  ['not-analyzed', 'Not analyzed'],
];

export function AnalyticsPanel({ streams }: { streams: readonly StreamDto[] }) {
  const a = streamAnalytics(streams);
  const peak = Math.max(1, ...a.histogram);
  return (
    <section className="panel" aria-labelledby="analytics-title">
      <div className="panel__header">
        <h2 id="analytics-title">Stream analytics</h2>
      </div>
      <div className="analytics">
        <div className="stat">
          <span className="stat__label">Streams</span>
          <span className="stat__value">{a.found}</span>
          <ul className="stat__rows">
            <li>
              <span>Active</span> <strong>{a.active}</strong>
            </li>
            <li>
              <span>Inactive</span> <strong>{a.inactive}</strong>
            </li>
            <li>
              <span>Analyzed</span> <strong>{a.analyzed}</strong>
            </li>
            <li>
              <span>Pending analysis</span> <strong>{a.pending}</strong>
            </li>
          </ul>
        </div>
        <div className="stat">
          <span className="stat__label">By category</span>
          <ul className="stat__rows">
            {Object.entries(a.byCategory)
              .sort((x, y) => y[1] - x[1])
              .map(([category, count]) => (
                <li key={category}>
                  <CategoryLabel category={category as Category} /> <strong>{count}</strong>
                </li>
              ))}
          </ul>
        </div>
        <div className="stat">
          <span className="stat__label">By grade</span>
          <ul className="stat__rows">
            {BUCKETS.map(([key, label]) => (
              <li key={key}>
                <span>{label}</span> <strong>{a.byBucket[key] ?? 0}</strong>
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
