/**
 * The frames this screen's video players decoded and dropped, per stream, since the last report
 * (the browser's own count: HTMLVideoElement.getVideoPlaybackQuality): the `dropped_frames`
 * report, every 30 s while any video plays — for the Screens tab and the metrics, and for telling
 * a wall whose machine cannot keep up with its tiles from one that can. Embedded players
 * (YouTube, Twitch…) are other sites' frames and cannot be counted.
 */
import type { DroppedFramesReport } from '../../../../src/shared/api/screens.ts';
import { definePart } from './part.ts';

/** How often the counts are sent (the health report's heartbeat cadence). */
export const DROPPED_FRAMES_EVERY_MS = 30_000;

interface Counts {
  frames: number;
  dropped: number;
}

/**
 * What each stream's players decoded and dropped since `seen` was last updated, which it is now.
 * A player new since then counts from its start; one that went away counts no more.
 */
export function framesSince(players: readonly { streamId: number; video: object; now: Counts }[], seen: WeakMap<object, Counts>): DroppedFramesReport['streams'] {
  const byStream = new Map<number, Counts>();
  for (const { streamId, video, now } of players) {
    const before = seen.get(video) ?? { frames: 0, dropped: 0 };
    seen.set(video, now);
    // A counter that went back (a new source in the same element) starts again from zero.
    const frames = now.frames >= before.frames ? now.frames - before.frames : now.frames;
    const dropped = Math.min(frames, now.dropped >= before.dropped ? now.dropped - before.dropped : now.dropped);
    const sum = byStream.get(streamId) ?? { frames: 0, dropped: 0 };
    byStream.set(streamId, { frames: sum.frames + frames, dropped: sum.dropped + dropped });
  }
  return [...byStream].filter(([, c]) => c.frames > 0).sort(([a], [b]) => a - b).map(([stream_id, c]) => ({ stream_id, ...c }));
}

/** The page's video players, with the stream each plays (the Player's `data-stream-id`). */
export function videoPlayers(doc: Document): { streamId: number; video: object; now: Counts }[] {
  return [...doc.querySelectorAll<HTMLVideoElement>('[data-stream-id] video')].flatMap((video) => {
    const streamId = Number(video.closest('[data-stream-id]')?.getAttribute('data-stream-id'));
    if (!Number.isSafeInteger(streamId) || streamId < 1 || typeof video.getVideoPlaybackQuality !== 'function') return [];
    const quality = video.getVideoPlaybackQuality();
    return [{ streamId, video, now: { frames: quality.totalVideoFrames, dropped: quality.droppedVideoFrames } }];
  });
}

export const droppedFramesPart = definePart<'dropped_frames'>({
  name: 'dropped frames',
  reports: ['dropped_frames'],
  start(session) {
    const seen = new WeakMap<object, Counts>();
    let since = performance.now();
    let decoding = false;
    const timer = setInterval(() => {
      const streams = framesSince(videoPlayers(document), seen);
      const now = performance.now();
      // While videos decode, their counts; once, when they stop, an empty report (the last window is not shown as now).
      if (streams.length > 0 || decoding) session.report('dropped_frames', { window_ms: Math.round(now - since), streams });
      decoding = streams.length > 0;
      since = now;
    }, DROPPED_FRAMES_EVERY_MS);
    return { stop: () => clearInterval(timer) };
  },
});
