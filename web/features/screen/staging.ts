/**
 * The streams a screen shows now and those it shows after its next flip, in a DOM order that
 * never moves an element that stays: each stream keeps the place it got when it first appeared,
 * and newcomers go after. Where a stream *shows* is the layout's business (positions, CSS order)
 * — moving an iframe in the DOM reloads it, and moving a video restarts its decoder.
 *
 * Both sides are rendered before the flip's instant (incoming streams loading out of sight where
 * they will appear); the flip itself only switches which side shows (flip-scheduler.ts).
 */
import { useRef } from 'react';

/** What a staged element is across the flip that waits (none waiting: every element is `kept`). */
export type StageRole = 'kept' | 'incoming' | 'leaving';

export interface Staged<T> {
  id: number;
  /** As shown now; null for a stream that comes with the next flip. */
  now: T | null;
  /** As shown after the next flip; null for one that leaves then. Without a flip waiting, `now`. */
  next: T | null;
  /** Its index among what shows now (null: not shown now). */
  nowIndex: number | null;
  /** Its index among what shows after the flip (null: gone then). */
  nextIndex: number | null;
  role: StageRole;
}

/** First-seen ranks: kept for ids still present, new ids ranked after every other. */
export interface StageOrder {
  next: number;
  ranks: Map<number, number>;
}

/**
 * Pure: the staged list for `shown` and `incoming` (null: no flip waits), and the order to
 * remember for next time.
 */
export function stageStreams<T extends { id: number }>(order: StageOrder, shown: readonly T[], incoming: readonly T[] | null): { staged: Staged<T>[]; order: StageOrder } {
  const after = new Map((incoming ?? shown).map((item, index) => [item.id, { item, index }]));
  const staged: Staged<T>[] = shown.map((item, index) => {
    const next = after.get(item.id);
    return { id: item.id, now: item, next: next?.item ?? null, nowIndex: index, nextIndex: next?.index ?? null, role: next ? 'kept' : 'leaving' };
  });
  const shownIds = new Set(shown.map((s) => s.id));
  for (const [id, { item, index }] of after) {
    if (!shownIds.has(id)) staged.push({ id, now: null, next: item, nowIndex: null, nextIndex: index, role: 'incoming' });
  }
  const ranks = new Map<number, number>();
  let next = order.next;
  for (const { id } of staged) ranks.set(id, order.ranks.get(id) ?? next++);
  staged.sort((a, b) => ranks.get(a.id)! - ranks.get(b.id)!);
  return { staged, order: { next, ranks } };
}

/** stageStreams with its order kept across renders. */
export function useStagedStreams<T extends { id: number }>(shown: readonly T[], incoming: readonly T[] | null): Staged<T>[] {
  const order = useRef<StageOrder>({ next: 0, ranks: new Map() });
  const result = stageStreams(order.current, shown, incoming);
  order.current = result.order;
  return result.staged;
}
