/** What every analyzer shares: its context and its answer. */
import type { SafeFetcher } from '../../../http/safe-fetch.ts';
import type { QualityMeasurements } from '../../../shared/quality/score.ts';
import type { PlatformSettings } from '../../platforms/settings.ts';
import type { MediaTools } from './media-tools.ts';
import type { Fingerprint } from './replay.ts';
import type { PlaybackHints } from '../../../shared/streams/playback.ts';
import type { StillPicture } from '../../streams/stream-stills.ts';

export interface AnalyzerContext {
  fetcher: SafeFetcher;
  tools: MediaTools;
  platforms: PlatformSettings;
  /** Seconds of picture decoded (≈ 8). */
  sampleSeconds: number;
  sleep: (ms: number) => Promise<void>;
  /** Now, for night at the location (tests pin it). */
  now?: () => Date;
}

export interface Analysis {
  measurements: QualityMeasurements;
  /** Everything measured, as stored in quality_analyses.metrics. */
  metrics: Record<string, unknown>;
  /** CPU seconds of the ffmpeg children, when they ran. */
  cpuSeconds: number | null;
  /** How screens should start and sync a direct stream: null for files and embeds; absent when the playlist was not read. */
  playback?: PlaybackHints | null;
  /** A picture of what the stream shows (a frame of the sample, or the platform's thumbnail); absent when none could be taken. */
  still?: StillPicture | null;
  /** What a live HLS sample saw, compact (replay.ts): compared with earlier ones to find a looped recording. */
  fingerprint?: Fingerprint | null;
  /** The live edge's program date-time (epoch ms), when its playlist has one. */
  edgeProgramTime?: number | null;
}
