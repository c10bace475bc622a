/**
 * What quality hears from screens: a stream a player reports failing is checked at once (in the
 * screens' urgent lane), and one that plays again is no longer counted as failing — self-healing
 * walls start here.
 */
import type { FeatureReports } from '../../realtime/reports.ts';
import type { QualityJobs } from './quality.jobs.ts';

export function qualityReports(jobs: Pick<QualityJobs, 'playbackReport'>): FeatureReports {
  return {
    name: 'quality',
    onReport(report) {
      if (report.kind !== 'playback') return;
      for (const change of report.changes) jobs.playbackReport(change.streamId, change.state);
    },
  };
}
