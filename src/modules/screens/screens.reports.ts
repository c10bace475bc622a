/**
 * What walls and kiosks report of themselves, kept with each screen for the Screens tab (the
 * hub keeps the latest value on the screen's presence, reports.ts): how their players do — also
 * their heartbeat —, how far their clock is off, their last flip, and whether they could start
 * without their server, and the frames their video players dropped (also counted in the metrics).
 * Other features hear them (quality: a stream a player reports failing).
 */
import { declareReport, type AnyReportDeclaration } from '../../realtime/reports.ts';
import { ClockReport, DroppedFramesReport, droppedShare, FlipReport, HealthReport, OfflineStartReport, type ScreenPresence } from '../../shared/api/screens.ts';
import { clockMoved } from '../../shared/clock.ts';
import type { OfflineStart } from '../../shared/offline.ts';
import { videoFrames } from './screens.metrics.ts';

const SCREENS = ['wall', 'kiosk'] as const;

/** Playback per stream id, as the screen's players last said (what admins see of it). */
type KeptHealth = ScreenPresence['health'];

export const screenReports: readonly AnyReportDeclaration[] = [
  declareReport<'health', KeptHealth>({
    name: 'health',
    title: 'health',
    schema: HealthReport,
    from: SCREENS,
    // What its players play depends on what it registered for: a new registration starts afresh.
    keep: { value: (report) => Object.fromEntries(report.streams.map((s) => [String(s.stream_id), s.state])), empty: {}, perRegistration: true },
  }),
  declareReport<'clock', ClockReport>({
    name: 'clock',
    title: 'clock',
    schema: ClockReport,
    from: SCREENS,
    keep: { value: (report) => report, empty: null, changed: clockMoved },
  }),
  declareReport<'flip', FlipReport>({
    name: 'flip',
    title: 'flip',
    schema: FlipReport,
    from: SCREENS,
    keep: { value: (report) => report, empty: null },
  }),
  declareReport<'offline_start', OfflineStart>({
    name: 'offline_start',
    title: 'offline start',
    schema: OfflineStartReport,
    from: SCREENS,
    keep: { value: (report) => report.state, empty: null },
  }),
  declareReport<'dropped_frames', DroppedFramesReport>({
    name: 'dropped_frames',
    title: 'dropped frames',
    schema: DroppedFramesReport,
    from: SCREENS,
    // A new window every report: news for the admins' list only when the share dropped moved by a point.
    keep: { value: (report) => report, empty: null, changed: (before, after) => !before || Math.abs(droppedShare(before) - droppedShare(after)) >= 0.01 },
    receive(report) {
      for (const { frames, dropped } of report.streams) {
        videoFrames.inc({ outcome: 'presented' }, frames - dropped);
        videoFrames.inc({ outcome: 'dropped' }, dropped);
      }
    },
  }),
];
