/**
 * A feature that exists only in the tests, to prove screens' reports reach features without the
 * hub being edited: it hands the hub a FeatureReports and keeps what it hears. Nothing under
 * src/realtime/ knows it; the app takes it as one more module.
 */
import { MODULES } from '../../src/modules/index.ts';
import { defineModule } from '../../src/modules/module.ts';
import type { FeatureReports, ScreenReport } from '../../src/realtime/reports.ts';

export function beaconReports(): FeatureReports & { heard: ScreenReport[] } {
  const heard: ScreenReport[] = [];
  return {
    name: 'beacon-reports',
    heard,
    onReport: (report) => void heard.push(report),
  };
}

/** The app's modules and one that hears reports. */
export const withReports = (reports: FeatureReports) => [...MODULES, defineModule({ name: 'beacon-reports', reports: () => reports })];
