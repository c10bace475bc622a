/**
 * A feature that exists only in the tests, to prove screens' reports reach features without the
 * hub being edited: it hands the hub a FeatureReports and keeps what it hears. Nothing under
 * src/realtime/ knows it.
 */
import type { FeatureReports, ScreenReport } from '../../src/realtime/reports.ts';

export function beaconReports(): FeatureReports & { heard: ScreenReport[] } {
  const heard: ScreenReport[] = [];
  return {
    name: 'beacon-reports',
    heard,
    onReport: (report) => void heard.push(report),
  };
}
