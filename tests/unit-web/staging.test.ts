/**
 * A screen's DOM order across flips (web/features/screen/staging.ts): an element that stays is
 * never moved (an iframe would reload, a video restart), newcomers go after, and a stream shown
 * now and in the next scene is one element, shown.
 */
import { describe, expect, it } from 'vitest';
import { stageStreams, type StageOrder } from '../../web/features/screen/staging.ts';

const s = (...ids: number[]) => ids.map((id) => ({ id }));
const fresh = (): StageOrder => ({ next: 0, ranks: new Map() });

/** Runs a sequence of (shown, incoming) renders and returns the DOM order of each. */
function renders(steps: [number[], number[] | null][]) {
  let order = fresh();
  return steps.map(([shown, incoming]) => {
    const result = stageStreams(order, s(...shown), incoming ? s(...incoming) : null);
    order = result.order;
    return result.staged.map((x) => `${x.item.id}${x.incoming ? '+' : ''}@${x.index}`);
  });
}

describe('stageStreams', () => {
  it('keeps the DOM order of streams that stay when the scene reorders them', () => {
    const [first, waiting, flipped] = renders([
      [[1, 2, 3], null],
      [[1, 2, 3], [3, 1, 4]],
      [[3, 1, 4], null],
    ]);
    expect(first).toEqual(['1@0', '2@1', '3@2']);
    // 3 and 1 stay where they are in the DOM; 4 loads after them, out of sight.
    expect(waiting).toEqual(['1@0', '2@1', '3@2', '4+@2']);
    // After the flip: 2 is gone, the others keep their relative order; indexes say where they show.
    expect(flipped).toEqual(['1@1', '3@0', '4@2']);
  });

  it('never reorders elements that persist, over many flips', () => {
    let order = fresh();
    let previous: number[] = [];
    const scenes = [[1, 2, 3, 4, 5], [5, 4, 3, 2, 1], [2, 6, 4], [4, 2, 7, 1], [7, 4], [1, 2, 3, 4, 7]];
    for (const scene of scenes) {
      const { staged, order: next } = stageStreams(order, s(...scene), null);
      order = next;
      const dom = staged.map((x) => x.item.id);
      const kept = previous.filter((id) => dom.includes(id));
      expect(dom.filter((id) => previous.includes(id))).toEqual(kept);
      previous = dom;
    }
  });

  it('lists a stream in both scenes once, as shown', () => {
    const { staged } = stageStreams(fresh(), s(1, 2), s(2, 9));
    expect(staged.map((x) => [x.item.id, x.incoming])).toEqual([[1, false], [2, false], [9, true]]);
  });
});
