/**
 * What walls and kiosks report of themselves, kept with each screen for the Screens tab (the
 * hub keeps the latest value on the screen's presence, reports.ts): how their players do — also
 * their heartbeat —, how far their clock is off, their last flip, and whether they could start
 * without their server, and the frames their video players dropped (also counted in the metrics).
 * Other features hear them (quality: a stream a player reports failing).
 */
import { declareReport, type AnyReportDeclaration } from '../../realtime/reports.ts';
import { ClockReport, DROPPED_FRAMES_WARN, DroppedFramesReport, droppedShare, FlipReport, HealthReport, OfflineStartReport } from '../../shared/api/screens.ts';
import { clockMoved } from '../../shared/clock.ts';
import { videoFrames } from './screens.metrics.ts';

const SCREENS = ['wall', 'kiosk'] as const;


export const screenReports: readonly AnyReportDeclaration[] = [
  declareReport<'health'>({
    name: 'health',
    title: 'health',
    schema: HealthReport,
    from: SCREENS,
    // What its players play depends on what it registered for: a new registration starts afresh.
    keep: { value: (report) => Object.fromEntries(report.streams.map((s) => [String(s.stream_id), s.state])), empty: {}, perRegistration: true },
  }),
  declareReport<'clock'>({
    name: 'clock',
    title: 'clock',
    schema: ClockReport,
    from: SCREENS,
    keep: { value: (report) => report, empty: null, changed: clockMoved },
  }),
  declareReport<'flip'>({
    name: 'flip',
    title: 'flip',
    schema: FlipReport,
    from: SCREENS,
    keep: { value: (report) => report, empty: null },
  }),
  declareReport<'offline_start'>({
    name: 'offline_start',
    title: 'offline start',
    schema: OfflineStartReport,
    from: SCREENS,
    keep: { value: (report) => report.state, empty: null },
  }),
  declareReport<'dropped_frames'>({
    name: 'dropped_frames',
    title: 'dropped frames',
    schema: DroppedFramesReport,
    from: SCREENS,
    // A report with no frames (nothing decoding any more) says nothing: the last window is not shown as now.
    // A new window every 30 s: news for the admins' list only when the screen starts or stops
    // keeping up, or its share moves by 5 points (a struggling screen's share wobbles every window).
    keep: { value: (report) => (report.streams.length > 0 ? report : null), empty: null, changed: droppedFramesMoved },
    receive(report) {
      for (const { frames, dropped } of report.streams) {
        videoFrames.inc({ outcome: 'presented' }, frames - dropped);
        videoFrames.inc({ outcome: 'dropped' }, dropped);
      }
    },
  }),
];

/** Whether what a screen's players dropped is news for the admins' list (see the declaration above). */
export function droppedFramesMoved(before: DroppedFramesReport | null, after: DroppedFramesReport | null): boolean {
  if (!before || !after) return before !== after;
  const [was, is] = [droppedShare(before), droppedShare(after)];
  return was > DROPPED_FRAMES_WARN !== is > DROPPED_FRAMES_WARN || Math.abs(is - was) >= 0.05 - 1e-9; // (0.15 − 0.1 is 0.0499… in floating point)
}
