import { describe, expect, it } from 'vitest';
import { droppedFramesMoved } from '../../src/modules/screens/screens.reports.ts';

const window = (dropped: number, frames = 1000) => ({ window_ms: 30_000, streams: [{ stream_id: 1, frames, dropped }] });

describe('what a screen\'s dropped frames make news for the admins\' list (each report is a new window; a wobble is not news)', () => {
  it.each([
    ['the first report', null, window(10), true],
    ['nothing decodes any more', window(10), null, true],
    ['still nothing', null, null, false],
    ['a wobble under the mark', window(10), window(30), false],
    ['a struggling screen wobbling by 4 points', window(460), window(500), false],
    ['it starts struggling (past 5 %)', window(40), window(60), true],
    ['it keeps up again', window(60), window(40), true],
    ['a move of 5 points', window(100), window(150), true],
  ])('%s', (_rule, before, after, news) => {
    expect(droppedFramesMoved(before, after)).toBe(news);
  });
});
