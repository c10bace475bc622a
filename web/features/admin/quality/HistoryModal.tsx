/** A stream's score history (uPlot) and its last analyses: when, score, faults, error, how. */
import { useAtomValue } from 'jotai';
import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { QualityAnalysisDto, StreamDto } from '../../../../src/shared/api/index.ts';
import { Modal } from '../../../components/Modal.tsx';
import { store } from '../../../lib/store.ts';
import { DataView, Table } from '../../../components/DataView.tsx';
import { adminApi } from '../admin-api.ts';
import { formatDateTime } from '../format.ts';
import { useLiveFetch } from '../live/live.ts';
import { lastAnalysisAtom } from './quality.live.ts';
import { StreamUptime } from '../uptime/Uptime.tsx';
import { DailyStrip } from './Activity.tsx';
import './quality.css';

function ScoreChart({ analyses }: { analyses: readonly QualityAnalysisDto[] }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const scored = [...analyses].filter((a) => a.score !== null).reverse();
    if (!box.current || scored.length === 0) return;
    const times = scored.map((a) => Date.parse(a.created_at) / 1000);
    const only = times.length === 1 ? times[0]! : null;
    const plot = new uPlot(
      {
        width: box.current.clientWidth || 600,
        height: 180,
        // One analysis alone still gets a readable hour around it, not years of empty axis (uPlot
        // 1.6 widens a lone time to 86,400 / 0.001 s — 2.7 years — before this range sees it).
        scales: { x: { time: true, range: (_u, min, max) => (only !== null ? [only - 3600, only + 3600] : [min, max]) }, y: { range: [0, 100] } },
        axes: [{ stroke: '#a9bfb1', grid: { stroke: '#27402f' } }, { stroke: '#a9bfb1', grid: { stroke: '#27402f' } }],
        series: [{}, { label: 'Score', stroke: '#86dba8', width: 2, points: { show: true, fill: '#86dba8' } }],
        legend: { show: false },
      },
      [times, scored.map((a) => a.score)],
      box.current,
    );
    return () => plot.destroy();
  }, [analyses]);
  return <div ref={box} className="score-chart" role="img" aria-label="Quality score over time" />;
}

export function HistoryModal({ stream, onClose }: { stream: StreamDto; onClose: () => void }) {
  // A new analysis of this stream, pushed while the modal is open, brings the history up to date.
  const newest = useAtomValue(lastAnalysisAtom, { store }).get(stream.id)?.version ?? 0;
  const { value: analyses, error } = useLiveFetch(() => adminApi.analyses(stream.id), String(stream.id), newest, 'Failed to load the analysis history');
  return (
    <Modal title={`Quality history: ${stream.name}`} onClose={onClose} wide>
      <StreamUptime id={stream.id} version={newest} />
      <DailyStrip streamId={stream.id} version={newest} />
      <DataView value={analyses} error={error} empty="Not analyzed yet.">
        {(analyses) => (
          <>
            <ScoreChart analyses={analyses} />
            <Table columns={['When', 'Score', 'Faults', 'Measured', 'Why']}>
              <tbody>
                {analyses.slice(0, 12).map((a) => (
                  <tr key={a.id}>
                    <td>{formatDateTime(a.created_at)}</td>
                    <td>{a.score === null ? '—' : `${a.score}/100`}</td>
                    <td>
                      {a.faults.length ? a.faults.join(', ') : 'none'}
                      {a.notes.length > 0 && <div className="history__notes">{a.notes.join('; ')}</div>}
                    </td>
                    <td>{a.method ?? '—'}</td>
                    <td>{a.error ?? a.trigger}</td>
                  </tr>
                ))}
              </tbody>
            </Table>
          </>
        )}
      </DataView>
    </Modal>
  );
}
