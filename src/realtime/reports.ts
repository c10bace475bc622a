/**
 * How features hear what screens report — the extension point beside pushes (pushes.ts). A
 * feature hands the hub a `FeatureReports`; the hub calls it with every report a screen on this
 * node makes, validated, with only what changed. Adding a kind of report is a change to
 * src/shared/events.ts and to the features that want it; the hub is not edited to plug one in.
 */
import type { PlaybackState, ScreenKind } from '../shared/events.ts';

/** A stream whose playback a screen reports in a new state. */
export interface PlaybackChange {
  streamId: number;
  state: PlaybackState;
  /** What the screen reported before (null: first report of that stream). */
  previous: PlaybackState | null;
}

/** Who reported. */
export interface ReportingScreen {
  /** The connection id (commands go to it). */
  id: string;
  kind: ScreenKind;
  device: string | null;
  sceneId: number | null;
}

export type ScreenReport = { kind: 'playback'; screen: ReportingScreen; changes: PlaybackChange[] };

export interface FeatureReports {
  /** A name for logs. */
  name: string;
  /** Called on the node the screen is connected to; must not throw, must not wait. */
  onReport(report: ScreenReport): void;
}
