/** A stream's score history (uPlot) and its last analyses: when, score, faults, error, how. */
import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { QualityAnalysisDto, StreamDto } from '../../../../src/shared/api/index.ts';
import { Modal } from '../../../components/Modal.tsx';
import { ErrorBox } from '../../../components/FormParts.tsx';
import { adminApi } from '../admin-api.ts';
import { formatDateTime } from '../format.ts';
import { useRemote } from '../useRemote.ts';

function ScoreChart({ analyses }: { analyses: readonly QualityAnalysisDto[] }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const scored = [...analyses].filter((a) => a.score !== null).reverse();
    if (!box.current || scored.length === 0) return;
    const plot = new uPlot(
      {
        width: box.current.clientWidth || 600,
        height: 180,
        // One analysis alone still gets a readable hour around it, not years of empty axis.
        scales: { x: { time: true, range: (_u, min, max) => (min === max ? [min - 3600, max + 3600] : [min, max]) }, y: { range: [0, 100] } },
        axes: [{ stroke: '#a9bfb1', grid: { stroke: '#27402f' } }, { stroke: '#a9bfb1', grid: { stroke: '#27402f' } }],
        series: [{}, { label: 'Score', stroke: '#86dba8', width: 2, points: { show: true, fill: '#86dba8' } }],
        legend: { show: false },
      },
      [scored.map((a) => Date.parse(a.created_at) / 1000), scored.map((a) => a.score)],
      box.current,
    );
    return () => plot.destroy();
  }, [analyses]);
  return <div ref={box} className="score-chart" role="img" aria-label="Quality score over time" />;
}

export function HistoryModal({ stream, onClose }: { stream: StreamDto; onClose: () => void }) {
  const { value: analyses, error } = useRemote(() => adminApi.analyses(stream.id), String(stream.id), 'Failed to load the analysis history');
  return (
    <Modal title={`Quality history: ${stream.name}`} onClose={onClose} wide>
      <ErrorBox error={error} />
      {analyses === null ? (
        <p className="empty">Loading…</p>
      ) : analyses.length === 0 ? (
        <p className="empty">Not analyzed yet.</p>
      ) : (
        <>
          <ScoreChart analyses={analyses} />
          <div className="table-wrap">
            <table className="table">
              <thead>
                <tr>
                  <th scope="col">When</th>
                  <th scope="col">Score</th>
                  <th scope="col">Faults</th>
                  <th scope="col">Measured</th>
                  <th scope="col">Why</th>
                </tr>
              </thead>
              <tbody>
                {analyses.slice(0, 12).map((a) => (
                  <tr key={a.id}>
                    <td>{formatDateTime(a.created_at)}</td>
                    <td>{a.score === null ? '—' : `${a.score}/100`}</td>
                    <td>{a.faults.length ? a.faults.join(', ') : 'none'}</td>
                    <td>{a.method ?? '—'}</td>
                    <td>{a.error ?? a.trigger}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
    </Modal>
  );
}
