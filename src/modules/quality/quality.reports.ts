/**
 * What quality hears from screens: a stream a player reports failing is checked at once (in the
 * screens' urgent lane), and one that plays again is no longer counted as failing — self-healing
 * walls start here. It hears the screens module's `health` report, each stream once per change,
 * from screens only (approved ones, when approval is on).
 */
import { hearReport, type FeatureReports } from '../../realtime/reports.ts';
import type { QualityJobs } from './quality.jobs.ts';

export function qualityReports(jobs: Pick<QualityJobs, 'playbackReport'>): FeatureReports {
  return {
    name: 'quality',
    hears: [
      hearReport<'health'>({
        report: 'health',
        hear(report, screen, before) {
          // A visitor's browser (a public viewer) never moves the server: only screens' reports do.
          if (!screen.counted) return;
          for (const { stream_id, state } of report.streams) if (before?.[String(stream_id)] !== state) jobs.playbackReport(stream_id, state);
        },
      }),
    ],
  };
}
