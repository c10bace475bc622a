import { describe, expect, it } from 'vitest';
import { framesSince } from '../../web/features/screen/parts/dropped-frames.ts';

describe('dropped frames since the last report', () => {
  it('counts what each stream\'s players decoded and dropped since then, a new player from its start, a gone one no more', () => {
    const seen = new WeakMap<object, { frames: number; dropped: number }>();
    const a = {};
    const b = {};
    const fullscreen = {};
    expect(framesSince([{ streamId: 7, video: a, now: { frames: 250, dropped: 5 } }], seen)).toEqual([{ stream_id: 7, frames: 250, dropped: 5 }]);
    expect(
      framesSince(
        [
          { streamId: 7, video: a, now: { frames: 1000, dropped: 5 } },
          { streamId: 9, video: b, now: { frames: 300, dropped: 30 } },
          { streamId: 7, video: fullscreen, now: { frames: 100, dropped: 1 } }, // the same stream in a second player
        ],
        seen,
      ),
    ).toEqual([
      { stream_id: 7, frames: 850, dropped: 1 },
      { stream_id: 9, frames: 300, dropped: 30 },
    ]);
    // b went away; a stood still (paused): nothing to say of either.
    expect(framesSince([{ streamId: 7, video: a, now: { frames: 1000, dropped: 5 } }], seen)).toEqual([]);
  });

  it('starts again from zero when an element\'s counters go back (a new source), and never says more dropped than decoded', () => {
    const seen = new WeakMap<object, { frames: number; dropped: number }>();
    const v = {};
    framesSince([{ streamId: 3, video: v, now: { frames: 5000, dropped: 400 } }], seen);
    expect(framesSince([{ streamId: 3, video: v, now: { frames: 120, dropped: 2 } }], seen)).toEqual([{ stream_id: 3, frames: 120, dropped: 2 }]);
    expect(framesSince([{ streamId: 3, video: v, now: { frames: 125, dropped: 50 } }], seen)).toEqual([{ stream_id: 3, frames: 5, dropped: 5 }]);
  });
});
