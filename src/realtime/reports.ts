/**
 * How features hear what screens report — the extension point beside pushes (pushes.ts). A
 * feature hands the hub a `FeatureReports`; the hub calls it with every report a screen on this
 * node makes, validated, with only what changed. Adding a kind of report is a change to
 * src/shared/events.ts and to the features that want it; the hub is not edited to plug one in.
 */
import type { PlaybackState, PlayRecord, PlaysAnswer, ScreenKind } from '../shared/events.ts';

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

/**
 * A wall's or kiosk's proof of play (only screens with a device id send it). `screen.device` is
 * the screen's key: its device id, and for a kiosk `<device>#kiosk-<position>` (one browser may
 * run a wall and kiosks side by side).
 */
export interface PlaysReport {
  screen: ReportingScreen & { device: string; kind: 'wall' | 'kiosk'; name: string | null; position: number | null };
  records: PlayRecord[];
}

export interface FeatureReports {
  /** A name for logs. */
  name: string;
  /** Called on the node the screen is connected to; must not throw, must not wait. */
  onReport?(report: ScreenReport): void;
  /**
   * Proof of play (one feature keeps it): the screen drops its records once answered, so the
   * answer comes when they are kept — or with an error, and the screen sends them again later.
   */
  onPlays?(report: PlaysReport): Promise<PlaysAnswer>;
}
