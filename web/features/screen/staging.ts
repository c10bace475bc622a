/**
 * The streams a screen shows and those it prepares for its next flip, in a DOM order that never
 * moves an element that stays: each stream keeps the place it got when it first appeared, and
 * newcomers go after. Where a stream *shows* is the layout's business (grid areas, CSS order) —
 * moving an iframe in the DOM reloads it, and moving a video restarts its decoder.
 */
import { useRef } from 'react';

export interface Staged<T> {
  item: T;
  /** Being prepared for the next flip: mounted and loading, out of sight. */
  incoming: boolean;
  /** Its index among what is shown (or, incoming, among what will be). */
  index: number;
}

/** First-seen ranks: kept for ids still present, new ids ranked after every other. */
export interface StageOrder {
  next: number;
  ranks: Map<number, number>;
}

/** Pure: the staged list for `shown` and `incoming`, and the order to remember for next time. */
export function stageStreams<T extends { id: number }>(order: StageOrder, shown: readonly T[], incoming: readonly T[] | null): { staged: Staged<T>[]; order: StageOrder } {
  const staged: Staged<T>[] = shown.map((item, index) => ({ item, incoming: false, index }));
  const shownIds = new Set(shown.map((s) => s.id));
  (incoming ?? []).forEach((item, index) => {
    if (!shownIds.has(item.id)) staged.push({ item, incoming: true, index });
  });
  const ranks = new Map<number, number>();
  let next = order.next;
  for (const { item } of staged) ranks.set(item.id, order.ranks.get(item.id) ?? next++);
  staged.sort((a, b) => ranks.get(a.item.id)! - ranks.get(b.item.id)!);
  return { staged, order: { next, ranks } };
}

/** stageStreams with its order kept across renders. */
export function useStagedStreams<T extends { id: number }>(shown: readonly T[], incoming: readonly T[] | null): Staged<T>[] {
  const order = useRef<StageOrder>({ next: 0, ranks: new Map() });
  const result = stageStreams(order.current, shown, incoming);
  order.current = result.order;
  return result.staged;
}
