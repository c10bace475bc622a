import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createSwitcherVisibility, nearBottomEdge, SWITCHER_EDGE_PX, SWITCHER_HIDE_MS } from '../../web/features/wall/switcher.ts';

describe('scene switcher visibility (spec §9: 150 px, 3000 ms)', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it.each([
    ['at the very bottom', 900, true],
    ['exactly 150 px from the bottom', 750, true],
    ['151 px from the bottom', 749, false],
    ['in the middle', 450, false],
  ])('near the edge %s', (_case, y, near) => {
    expect(nearBottomEdge(y, 900)).toBe(near);
  });

  it('shows at once near the edge and hides 3000 ms after the pointer leaves', () => {
    const changes: boolean[] = [];
    const switcher = createSwitcherVisibility((visible) => changes.push(visible));
    switcher.pointer(450, 900);
    expect(changes).toEqual([]);
    switcher.pointer(900 - SWITCHER_EDGE_PX + 10, 900);
    expect(changes).toEqual([true]);
    switcher.pointer(300, 900);
    vi.advanceTimersByTime(SWITCHER_HIDE_MS - 1);
    expect(switcher.visible).toBe(true);
    vi.advanceTimersByTime(1);
    expect(changes).toEqual([true, false]);
  });

  it('coming back before the 3 s are up keeps it open, and the countdown restarts on leaving again', () => {
    const switcher = createSwitcherVisibility(() => {});
    switcher.pointer(890, 900);
    switcher.pointer(100, 900);
    vi.advanceTimersByTime(2500);
    switcher.pointer(880, 900);
    vi.advanceTimersByTime(5000);
    expect(switcher.visible).toBe(true);
    switcher.pointer(100, 900);
    vi.advanceTimersByTime(2999);
    expect(switcher.visible).toBe(true);
    vi.advanceTimersByTime(1);
    expect(switcher.visible).toBe(false);
  });

  it('stays while the pointer is over the bar or focus is inside it', () => {
    const switcher = createSwitcherVisibility(() => {});
    switcher.pointer(500, 900, true);
    vi.advanceTimersByTime(10_000);
    expect(switcher.visible).toBe(true);
    switcher.focus(true);
    switcher.pointer(100, 900);
    vi.advanceTimersByTime(10_000);
    expect(switcher.visible).toBe(true);
    switcher.focus(false);
    vi.advanceTimersByTime(SWITCHER_HIDE_MS);
    expect(switcher.visible).toBe(false);
  });

  it('the Scenes button reveals it; it stays while focus is inside, then hides 3 s later', () => {
    const switcher = createSwitcherVisibility(() => {});
    switcher.reveal();
    expect(switcher.visible).toBe(true);
    switcher.focus(true);
    vi.advanceTimersByTime(10_000);
    expect(switcher.visible).toBe(true);
    switcher.focus(false);
    vi.advanceTimersByTime(SWITCHER_HIDE_MS);
    expect(switcher.visible).toBe(false);
    switcher.reveal();
    vi.advanceTimersByTime(SWITCHER_HIDE_MS);
    expect(switcher.visible).toBe(false);
  });

  it('leaving the window starts the countdown', () => {
    const switcher = createSwitcherVisibility(() => {});
    switcher.pointer(895, 900);
    switcher.leave();
    vi.advanceTimersByTime(SWITCHER_HIDE_MS);
    expect(switcher.visible).toBe(false);
  });
});
