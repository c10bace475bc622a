/** Even shares (src/realtime/shares.ts): when a node sheds screens, how many, and where they go. */
import { describe, expect, it } from 'vitest';
import { EventEmitter } from 'node:events';
import { afterEach, vi } from 'vitest';
import type { HubSocket } from '../../src/realtime/io-server.ts';
import { paceMoves, paceMs } from '../../src/realtime/moves.ts';
import { DEFAULT_SHARE_RULE, destinations, NO_SHARE_STATE, screensToMove, type ShareState } from '../../src/realtime/shares.ts';

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

describe('paceMoves', () => {
  afterEach(() => vi.useRealTimers());
  /** A stand-in socket: it can leave (its move done), or stay (it ignores the notice). */
  class Fake extends EventEmitter {
    disconnected = false;
    leave() {
      this.disconnected = true;
      this.emit('disconnect');
    }
  }
  const fake = () => new Fake();

  it('keeps at most `concurrent` moving, tells the next as one leaves, and frees a slot a screen holds too long', () => {
    vi.useFakeTimers();
    const sockets = Array.from({ length: 6 }, fake);
    const told: number[] = [];
    paceMoves(sockets as unknown as HubSocket[], (_s, i) => told.push(i), { concurrent: 2, perSecond: 1_000, slotTimeoutMs: 1_000, jitterMs: 0 });
    vi.advanceTimersByTime(10);
    expect(told).toEqual([0, 1]);
    sockets[0]!.leave();
    vi.advanceTimersByTime(10);
    expect(told).toEqual([0, 1, 2]);
    // Screen 1 ignores the notice: its slot is freed after slotTimeoutMs (screen 2's, told later, not yet).
    vi.advanceTimersByTime(985);
    expect(told).toEqual([0, 1, 2, 3]);
    // One already gone is skipped.
    sockets[5]!.disconnected = true;
    sockets[2]!.leave();
    sockets[3]!.leave();
    vi.advanceTimersByTime(10);
    expect(told).toEqual([0, 1, 2, 3, 4]);
  });

  it('tells no more than `perSecond` a second however fast they leave, and stops when asked', () => {
    vi.useFakeTimers();
    const sockets = Array.from({ length: 20 }, fake);
    const told: number[] = [];
    const pacing = paceMoves(sockets as unknown as HubSocket[], (s, i) => {
      told.push(i);
      (s as unknown as Fake).leave(); // moves at once
    }, { concurrent: 50, perSecond: 10, slotTimeoutMs: 5_000, jitterMs: 0 });
    vi.advanceTimersByTime(999);
    expect(told.length).toBe(10);
    pacing.stop();
    vi.advanceTimersByTime(5_000);
    expect(told.length).toBe(10);
    expect(paceMs(1_000, { concurrent: 50, perSecond: 250, slotTimeoutMs: 1, jitterMs: 0 })).toBe(4_000);
  });
});
