/** Even shares (src/realtime/shares.ts): when a node sheds screens, how many, and where they go. */
import { describe, expect, it } from 'vitest';
import { DEFAULT_SHARE_RULE, destinations, drainWindowMs, NO_SHARE_STATE, screensToMove, type ShareState } from '../../src/realtime/shares.ts';

const rule = { ...DEFAULT_SHARE_RULE, everyMs: 5_000, holdMs: 15_000 };

/** Looks every `everyMs` from `start` while `mine` and `others` stay as given; the moves asked at each look. */
function looks(mine: number, others: number[], times: number, state: ShareState = NO_SHARE_STATE): { moves: number[]; state: ShareState } {
  const moves: number[] = [];
  for (let i = 0; i < times; i++) {
    const next = screensToMove(mine, others, state, i * rule.everyMs, rule);
    moves.push(next.move);
    state = next.state;
  }
  return { moves, state };
}

describe('screensToMove', () => {
  it('moves nothing on a lone node, within the band, or with rebalancing off', () => {
    expect(looks(900, [], 10).moves.every((m) => m === 0)).toBe(true);
    // 1.1 × the mean: inside the band (above is 1.15).
    expect(looks(330, [300, 270], 10).moves.every((m) => m === 0)).toBe(true);
    expect(screensToMove(1000, [0, 0], NO_SHARE_STATE, 0, { ...rule, holdMs: 0 }).move).toBe(0);
  });

  it('waits the hold, then sheds in batches of at most a quarter, every other look, down to the target', () => {
    // 500 / 500 / 0 after a roll: the mean is 333, the band's edge 383, the target 350.
    const { moves } = looks(500, [500, 0], 9);
    // Looks at 0, 5, 10 s are within the 15 s hold; at 15 s a batch; 20 s waits for the counts to follow.
    expect(moves.slice(0, 3)).toEqual([0, 0, 0]);
    expect(moves[3]).toBe(125); // min(excess 150, a quarter of 500)
    expect(moves[4]).toBe(0);
    expect(moves[5]).toBe(125); // the counts given did not change: it would go on
  });

  it('goes on shedding inside the band until the target, then stops and forgets', () => {
    let state: ShareState = { overSince: 0, shedding: true, lastBatchAt: null };
    // 370 is under 1.15 × 333 but over 1.05 × 333 = 350: 20 more go.
    let next = screensToMove(370, [330, 300], state, 100_000, rule);
    expect(next.move).toBe(370 - Math.floor(((370 + 330 + 300) / 3) * 1.05));
    state = next.state;
    next = screensToMove(345, [330, 325], state, 200_000, rule);
    expect(next).toEqual({ move: 0, state: NO_SHARE_STATE });
  });

  it('sheds when another node is below the band, though itself inside it', () => {
    // 84 / 107 / 115: the mean is 102; 115 is under 1.15 × the mean, but 84 is under 0.85 × it.
    const held = screensToMove(115, [84, 107], { overSince: 0, shedding: false, lastBatchAt: null }, rule.holdMs, rule);
    expect(held.move).toBe(115 - Math.floor(102 * 1.05));
    // The node at 107 is not above the target (107.1): it leaves it to the other.
    expect(screensToMove(107, [84, 115], { overSince: 0, shedding: false, lastBatchAt: null }, rule.holdMs, rule).move).toBe(0);
  });

  it('starts the hold again when the node drops back into the band', () => {
    let state = screensToMove(500, [500, 0], NO_SHARE_STATE, 0, rule).state;
    state = screensToMove(340, [330, 330], state, 10_000, rule).state;
    expect(state).toEqual(NO_SHARE_STATE);
    expect(screensToMove(500, [500, 0], state, 20_000, rule).move).toBe(0);
  });
});

describe('destinations', () => {
  it('sends each screen to the named node with the fewest so far, evening them out', () => {
    const to = destinations(300, [
      { name: 'app2', connections: 400 },
      { name: 'app3', connections: 200 },
    ]);
    const count = (name: string) => to.filter((n) => n === name).length;
    // 900 in all over two nodes: 450 each.
    expect([count('app2'), count('app3')]).toEqual([50, 250]);
  });

  it('gives no destination when no other node has a name (the balancer decides)', () => {
    expect(destinations(5, [{ name: null, connections: 0 }])).toEqual([]);
    expect(destinations(5, [])).toEqual([]);
    expect(destinations(2, [{ name: null, connections: 0 }, { name: 'app1', connections: 7 }])).toEqual(['app1', 'app1']);
  });
});

describe('drainWindowMs', () => {
  it('grows with the screens a node holds, from a second, up to what the grace allows', () => {
    expect(drainWindowMs(0, 10_000)).toBe(1_000);
    expect(drainWindowMs(100, 10_000)).toBe(1_000);
    expect(drainWindowMs(1_000, 10_000)).toBe(6_667); // 150 a second
    expect(drainWindowMs(5_000, 10_000)).toBe(10_000);
    expect(drainWindowMs(1_000, 500)).toBe(500);
  });
});
