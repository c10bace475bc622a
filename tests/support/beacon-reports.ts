/**
 * A feature that exists only in the tests, to prove screens' reports are declared by features and
 * reach them without the hub being edited: it declares a report of its own (`screen:beacon`,
 * named below in the shared report map as any feature's contract would), answers it, and hears
 * the screens module's `health` report. (Its value is not kept on the screen: only a report the
 * screen's presence contract names can be — a type error otherwise.) Nothing under
 * src/realtime/ knows it; the app takes it as one more module.
 */
import { z } from 'zod';
import { MODULES } from '../../src/modules/index.ts';
import { defineModule } from '../../src/modules/module.ts';
import { declareReport, hearReport, type FeatureReports, type ReportingScreen } from '../../src/realtime/reports.ts';
import type { HealthReport, ScreenPresence } from '../../src/shared/api/screens.ts';

export const BeaconReport = z.strictObject({ blink: z.number().int().min(0).max(1_000) });
export type BeaconReport = z.output<typeof BeaconReport>;

declare module '../../src/shared/reports.ts' {
  interface ScreenReports {
    beacon: { report: BeaconReport; answer: { seen: number } };
  }
}

export interface Beacon extends FeatureReports {
  /** Beacon reports it took, with who sent them. */
  received: { report: BeaconReport; screen: ReportingScreen }[];
  /** Health reports it heard, with what was kept before. */
  heard: { report: HealthReport; screen: ReportingScreen; before: ScreenPresence['health'] | null }[];
}

export function beaconReports(): Beacon {
  const received: Beacon['received'] = [];
  const heard: Beacon['heard'] = [];
  return {
    name: 'beacon-reports',
    received,
    heard,
    declares: [
      declareReport<'beacon'>({
        name: 'beacon',
        title: 'beacon',
        schema: BeaconReport,
        from: ['wall'],
        refuse: (screen) => (screen.device ? null : 'A beacon needs a device id'),
        receive(report, screen) {
          received.push({ report, screen });
          return { seen: received.length };
        },
      }),
    ],
    hears: [hearReport<'health'>({ report: 'health', hear: (report, screen, before) => void heard.push({ report, screen, before }) })],
  };
}

/** The app's modules and one that declares and hears reports. */
export const withReports = (reports: FeatureReports) => [...MODULES, defineModule({ name: 'beacon-reports', reports: () => reports })];
