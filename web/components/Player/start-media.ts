/**
 * How a direct player's media starts, for the app's player (DirectVideo.tsx) and for a kiosk's
 * camera started before the app (web/prestart.ts): the same hls.js, set up the same way.
 */
import type HlsType from 'hls.js';
import type { PlaybackHints } from '../../../src/shared/streams/playback.ts';
import { cappedLevels } from './capped-levels.ts';
import { HLS_SETTINGS } from './hls-settings.ts';
import { HLS_WORKER_URL } from './hls-worker.ts';

export function playMuted(video: HTMLVideoElement): void {
  video.muted = true; // React sets no muted attribute: make autoplay's precondition explicit
  void video.play().catch(() => {
    /* autoplay refused: the first user interaction plays it (lib/interaction.ts) */
  });
}

/**
 * hls.js for one tile: the shared settings, the size cap stepped down by the screen's frame
 * budget (capped-levels.ts), transmuxing in the worker for one of several players, and the
 * variant the server's analysis found cheap to start (its first segment comes soonest; ABR
 * climbs from there once it has measured the link).
 */
export function createHls(Hls: typeof HlsType, options: { worker: boolean; playback: PlaybackHints | null }): HlsType {
  const hls = new Hls({
    ...HLS_SETTINGS,
    enableWorker: options.worker,
    workerPath: options.worker ? HLS_WORKER_URL : null,
    capLevelController: cappedLevels(Hls),
  });
  const startAt = options.playback?.start_bandwidth;
  if (startAt) {
    hls.once(Hls.Events.MANIFEST_PARSED, (_event, data) => {
      const level = data.levels.findIndex((l) => l.bitrate === startAt);
      if (level >= 0) hls.startLevel = level;
    });
  }
  return hls;
}
