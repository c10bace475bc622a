import { describe, expect, it } from 'vitest';
import { messageBudget } from '../../src/realtime/message-budget.ts';

describe('a socket’s message budget (points in a window from its first message)', () => {
  it.each([
    { rule: 'every message within the points passes', sends: [0, 1, 2], results: [true, true, true] },
    { rule: 'the message over the points is refused', sends: [0, 1, 2, 3], results: [true, true, true, false] },
    { rule: 'refused until the window that began with the first message ends', sends: [0, 100, 200, 300, 999], results: [true, true, true, false, false] },
    { rule: 'a new window begins with the first message after it ended', sends: [0, 1, 2, 3, 1000, 1001], results: [true, true, true, false, true, true] },
    { rule: 'the window starts at the first message, not on a shared clock', sends: [900, 1000, 1100, 1200], results: [true, true, true, false] },
  ])('$rule', ({ sends, results }) => {
    const budget = messageBudget(3, 1000);
    expect(sends.map((at) => budget.take('a', at))).toEqual(results);
  });

  it('counts each socket on its own', () => {
    const budget = messageBudget(1, 1000);
    expect([budget.take('a', 0), budget.take('b', 0), budget.take('a', 1), budget.take('b', 1)]).toEqual([true, true, false, false]);
  });

  it('forgets sockets whose window ended (no entry, and no timer, per idle socket)', () => {
    const budget = messageBudget(5, 1000);
    for (let i = 0; i < 100; i++) budget.take(`socket ${i}`, i);
    expect(budget.size).toBe(100);
    budget.take('late', 2000);
    expect(budget.size).toBe(1);
  });
});
