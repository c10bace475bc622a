/**
 * What is happening at a camera, as the console shows it: its last analyses' activity as a
 * sparkline with the latest against its normal ("4× usual"), a looped recording's evidence with
 * the "recording is fine" switch, and its day by hour as a 24-hour strip.
 */
import { useState } from 'react';
import type { HourProfileDto, StreamDto } from '../../../../src/shared/api/index.ts';
import { describeActivity } from '../../../../src/shared/quality/activity.ts';
import { call } from '../../../lib/api.ts';
import { useMay } from '../access.ts';
import { showFailure, showSuccess } from '../feedback.ts';
import { formatDateTime } from '../format.ts';
import { adminApi } from '../admin-api.ts';
import { DataView } from '../../../components/DataView.tsx';
import { useLiveFetch } from '../live/live.ts';

const W = 72;
const H = 22;

/** The last analyses' activity, oldest left; the latest against the camera's normal beside it. */
export function ActivitySpark({ stream }: { stream: Pick<StreamDto, 'name' | 'activity' | 'activity_ratio' | 'activity_basis' | 'activity_recent'> }) {
  const points = stream.activity_recent;
  if (stream.activity === null && points.length === 0) return <span className="activity activity--unknown" title="Embedded players give no frames to measure, and a stream not analysed yet has none">Unknown</span>;
  const top = Math.max(1, ...points.map((p) => p.activity));
  const xy = points.map((p, i) => `${points.length === 1 ? W / 2 : (i / (points.length - 1)) * (W - 4) + 2},${H - 2 - (p.activity / top) * (H - 4)}`).join(' ');
  const ratio = stream.activity_ratio;
  const said = describeActivity(ratio, stream.activity_basis);
  return (
    <span className={`activity${ratio !== null && ratio >= 2 ? ' activity--eventful' : ''}`} title={`${stream.name}: ${said}`}>
      <svg width={W} height={H} viewBox={`0 0 ${W} ${H}`} role="img" aria-label={`Activity of its last ${points.length} analyses`}>
        <polyline points={xy} fill="none" stroke="currentColor" strokeWidth="1.5" strokeLinejoin="round" />
      </svg>
      <span className="activity__ratio">{ratio === null ? '—' : `${ratio >= 10 ? Math.round(ratio) : ratio}×`}</span>
    </span>
  );
}

/** A looped recording's fault: what was found, when, and the admin's "recording is fine". */
export function LoopedNote({ stream }: { stream: Pick<StreamDto, 'id' | 'name' | 'looped' | 'recording_ok'> }) {
  const may = useMay();
  const [busy, setBusy] = useState(false);
  if (!stream.looped) return null;
  async function mark(fine: boolean) {
    setBusy(true);
    try {
      await adminApi.updateStream({ id: stream.id, recording_ok: fine });
      showSuccess(fine ? `"${stream.name}" may replay its recording on pool walls` : `"${stream.name}" leaves pool walls while it replays`);
    } catch (error) {
      showFailure('Could not change the recording mark', error);
    } finally {
      setBusy(false);
    }
  }
  return (
    <div className="looped" data-looped={stream.recording_ok ? 'fine' : 'fault'}>
      <span className="badge badge--warn" title={stream.looped.note}>
        {stream.recording_ok ? 'Recording (marked fine)' : 'Looped recording'}
      </span>
      <div className="scene-card__meta">
        Seen {formatDateTime(stream.looped.earlier_at, true)}, again {formatDateTime(stream.looped.found_at, true)}
      </div>
      <button type="button" className="link-button" disabled={busy} onClick={() => void mark(!stream.recording_ok)} {...may.button('stream.update')}>
        {stream.recording_ok ? 'Take the mark back' : 'Recording is fine'}
      </button>
    </div>
  );
}

const pct = (share: number | null) => (share === null ? 'no analyses' : `${Math.round(share * 100)} %`);

/** The camera's day in its local hours: live share as the cell's strength, dark hours shaded, activity as a bar. */
export function DailyStrip({ streamId, version }: { streamId: number; version: number }) {
  const { value, error } = useLiveFetch(() => call('quality.daily', { params: { id: streamId } }), String(streamId), version, 'Failed to load the daily pattern');
  return (
    <section className="daily" aria-label="Its day by hour">
      <h3>Its day, by local hour (last 30 days)</h3>
      <DataView value={value} error={error} empty="No analyses yet.">
        {(hours: readonly HourProfileDto[]) => {
          const top = Math.max(1, ...hours.map((h) => h.activity ?? 0));
          return (
            <ol className="daily__strip">
              {hours.map((h) => (
                <li
                  key={h.hour}
                  className={`daily__hour${h.analyses === 0 ? ' daily__hour--empty' : ''}${(h.dark_share ?? 0) > 0.5 ? ' daily__hour--dark' : ''}`}
                  style={{ '--live': h.live_share ?? 0, '--activity': (h.activity ?? 0) / top } as React.CSSProperties}
                  title={`${String(h.hour).padStart(2, '0')}:00 — live ${pct(h.live_share)}, dark ${pct(h.dark_share)}, activity ${h.activity ?? '—'} (${h.analyses} analyses)`}
                >
                  <span className="daily__bar" />
                  <span className="daily__label">{h.hour % 6 === 0 ? String(h.hour).padStart(2, '0') : ''}</span>
                </li>
              ))}
            </ol>
          );
        }}
      </DataView>
      <p className="scene-card__meta">Brighter: live more often at that hour · shaded: dark there · bar: how much happens</p>
    </section>
  );
}
