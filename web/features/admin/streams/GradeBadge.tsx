/** The quality grade of a stream, with the 'Quality Analysis' card on hover or focus (spec §2). */
import type { StreamDto } from '../../../../src/shared/api/index.ts';
import { adminScoreColor, gradeColor, qualityGrade } from '../../../../src/shared/quality/grade.ts';
import { useAtomValue } from 'jotai';
import { store } from '../../../lib/store.ts';
import { lastAnalysisAtom } from '../quality/quality.live.ts';
import { formatDateTime } from '../format.ts';
import './streams.css';

export function GradeBadge({ stream }: { stream: StreamDto }) {
  const score = stream.quality_score;
  // The faults of the newest analysis this console has seen (the history modal lists them all).
  const last = useAtomValue(lastAnalysisAtom, { store }).get(stream.id)?.value;
  return (
    <span className={`grade grade--${gradeColor(score)}`}>
      <button type="button" className="grade__badge" aria-label={score === null ? 'Not analyzed' : `Quality ${score} of 100, grade ${qualityGrade(score)}`}>
        {qualityGrade(score)}
      </button>
      <span className="grade__card" role="tooltip">
        <h3>Quality Analysis</h3>
        {score === null ? (
          <span>Not analyzed yet</span>
        ) : (
          <>
            <span>
              <strong className={`grade--${adminScoreColor(score)}`}>{score}/100</strong> · grade {qualityGrade(score)}
            </span>
            <span>Last analyzed: {stream.quality_assessed_at ? formatDateTime(stream.quality_assessed_at) : '—'}</span>
            <span>Confidence: {stream.quality_confidence === null ? '—' : `${Math.round(stream.quality_confidence * 100)}%`}</span>
            <span>Automatic: {stream.auto_score === null ? 'not analyzed' : `${stream.auto_score}/100`}</span>
            <span>
              Raters: {stream.human_count === 0 || stream.human_score === null ? 'not rated yet' : `${stream.human_score.toFixed(1)}/5 from ${stream.human_count} (${Math.round((stream.human_confidence ?? 0) * 100)}% sure)`}
            </span>
            {last && <span>Faults: {last.faults.length ? last.faults.join(', ') : 'none'}</span>}
            {last?.error && <span>{last.error}</span>}
          </>
        )}
      </span>
    </span>
  );
}
