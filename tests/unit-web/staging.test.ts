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
    // id, role mark (+ incoming, - leaving), and where it shows now → after the flip.
    return result.staged.map((x) => `${x.id}${x.role === 'incoming' ? '+' : x.role === 'leaving' ? '-' : ''}@${x.nowIndex ?? '_'}>${x.nextIndex ?? '_'}`);
  });
}

describe('stageStreams', () => {
  it('keeps the DOM order of streams that stay when the scene reorders them', () => {
    const [first, waiting, flipped] = renders([
      [[1, 2, 3], null],
      [[1, 2, 3], [3, 1, 4]],
      [[3, 1, 4], null],
    ]);
    expect(first).toEqual(['1@0>0', '2@1>1', '3@2>2']);
    // 3 and 1 stay where they are in the DOM and know where they show after the flip; 2 leaves
    // then; 4 loads after them, out of sight, already knowing its place.
    expect(waiting).toEqual(['1@0>1', '2-@1>_', '3@2>0', '4+@_>2']);
    // After the flip: 2 is gone, the others keep their relative order.
    expect(flipped).toEqual(['1@1>1', '3@0>0', '4@2>2']);
  });

  it('never reorders elements that persist, over many flips', () => {
    let order = fresh();
    let previous: number[] = [];
    const scenes = [[1, 2, 3, 4, 5], [5, 4, 3, 2, 1], [2, 6, 4], [4, 2, 7, 1], [7, 4], [1, 2, 3, 4, 7]];
    for (const scene of scenes) {
      const { staged, order: next } = stageStreams(order, s(...scene), null);
      order = next;
      const dom = staged.map((x) => x.id);
      const kept = previous.filter((id) => dom.includes(id));
      expect(dom.filter((id) => previous.includes(id))).toEqual(kept);
      previous = dom;
    }
  });

  it('lists a stream in both scenes once, with both of its sides', () => {
    const shown = [{ id: 1, name: 'old' }, { id: 2, name: 'Kelp' }];
    const next = [{ id: 2, name: 'Kelp (renamed)' }, { id: 9, name: 'Reef' }];
    const { staged } = stageStreams(fresh(), shown, next);
    expect(staged.map((x) => [x.id, x.role, x.now?.name ?? null, x.next?.name ?? null])).toEqual([
      [1, 'leaving', 'old', null],
      [2, 'kept', 'Kelp', 'Kelp (renamed)'],
      [9, 'incoming', null, 'Reef'],
    ]);
  });

  it('without a flip waiting, every element is kept and shows where it is', () => {
    const { staged } = stageStreams(fresh(), s(4, 5), null);
    expect(staged.map((x) => [x.role, x.nowIndex, x.nextIndex])).toEqual([['kept', 0, 0], ['kept', 1, 1]]);
  });
});
