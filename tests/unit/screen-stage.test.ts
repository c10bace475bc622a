/**
 * The stage rule (src/shared/screen-stage.ts): a pushed change with an instant waits for it on
 * this screen's clock; one that arrives late, has no instant, or comes before the clock is known
 * is shown at once; a newer change replaces a waiting one; the version rule holds throughout.
 */
import { describe, expect, it } from 'vitest';
import type { SceneDto, SceneStreamDto } from '../../src/shared/api/index.ts';
import { EMPTY_STAGE, flip, receive } from '../../src/shared/screen-stage.ts';
import type { ScreenMessage } from '../../src/shared/screen-state.ts';

const wall = { kind: 'wall' as const, follows: null };
const clock = { offsetMs: 1_000_000 }; // server time = local + 1,000,000
const push = (version: number, sceneId: number, at?: number): ScreenMessage => ({
  type: 'scene',
  payload: { version, ...(at === undefined ? {} : { at }), scene: { id: sceneId } as SceneDto, streams: [] as SceneStreamDto[] },
});
const shownScene = (stage: ReturnType<typeof receive>) => (stage.shown?.kind === 'wall' ? stage.shown.scene?.id : undefined);

describe('receive', () => {
  const start = receive(EMPTY_STAGE, push(1, 1), wall, clock, 0);

  it.each([
    ['shows a change without an instant at once', push(2, 2), clock, 500, 2, false],
    ['shows it at once before the clock is known', push(2, 2, 1_000_900), null, 500, 2, false],
    ['shows a late change at once', push(2, 2, 1_000_400), clock, 500, 2, false],
    ['shows one due within the wait threshold at once', push(2, 2, 1_000_505), clock, 500, 2, false],
    ['keeps a change for later when its instant is ahead', push(2, 2, 1_000_900), clock, 500, 1, true],
    ['ignores an older version', push(0, 3, 1_000_900), clock, 500, 1, false],
  ])('%s', (_rule, message, estimate, now, shown, waits) => {
    const next = receive(start, message, wall, estimate, now);
    expect(shownScene(next)).toBe(shown);
    expect(next.waiting !== null).toBe(waits);
  });

  it('puts the instant on the local clock, and flips to the waiting state', () => {
    const waiting = receive(start, push(2, 2, 1_000_900), wall, clock, 500);
    expect(waiting.waiting?.localAt).toBe(900);
    expect(shownScene(flip(waiting))).toBe(2);
    expect(flip(flip(waiting))).toEqual(flip(waiting));
  });

  it('lets a newer change replace a waiting one, and a stale one leave it', () => {
    const first = receive(start, push(2, 2, 1_000_900), wall, clock, 500);
    const newer = receive(first, push(3, 3, 1_001_200), wall, clock, 600);
    expect(newer.waiting).toMatchObject({ localAt: 1_200, state: { version: 3 } });
    expect(receive(newer, push(2, 9, 1_001_300), wall, clock, 700)).toBe(newer);
    // A late newer one replaces what waits, and shows at once.
    expect(shownScene(receive(first, push(3, 3, 1_000_550), wall, clock, 600))).toBe(3);
  });
});
