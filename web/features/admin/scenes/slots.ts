/**
 * The scene editor's slot rules as plain functions (spec §5), table-tested in
 * tests/unit-web/admin-rules.test.ts. (Stream search, filters and sort are the server's.)
 */
import type { SceneDto } from '../../../../src/shared/api/index.ts';
import { MAX_SCENE_STREAMS } from '../../../../src/shared/constants.ts';

// ---- scene slots ---------------------------------------------------------------------------

/** Five slots, index i = position i+1, null = empty. */
export type Slots = (number | null)[];

export function slotsOf(scene: Pick<SceneDto, 'stream_ids'> | null): Slots {
  const slots: Slots = Array.from({ length: MAX_SCENE_STREAMS }, () => null);
  scene?.stream_ids.slice(0, MAX_SCENE_STREAMS).forEach((id, i) => (slots[i] = id));
  return slots;
}

/** Spec §5: add only while a slot is empty; the stream goes to the first empty slot. */
export function addToSlots(slots: Slots, streamId: number): Slots {
  const empty = slots.indexOf(null);
  if (empty === -1 || slots.includes(streamId)) return slots;
  return slots.map((id, i) => (i === empty ? streamId : id));
}

export function removeFromSlots(slots: Slots, index: number): Slots {
  return slots.map((id, i) => (i === index ? null : id));
}

/** Dragging slot `from` to `to` moves it there; the slots between shift by one (a sortable list). */
export function moveSlot(slots: Slots, from: number, to: number): Slots {
  if (from === to || from < 0 || to < 0 || from >= slots.length || to >= slots.length) return slots;
  const next = [...slots];
  const [moved] = next.splice(from, 1);
  next.splice(to, 0, moved ?? null);
  return next;
}

/** Dropping an available stream on a slot: it takes that slot (replacing what was there). */
export function placeInSlot(slots: Slots, streamId: number, index: number): Slots {
  if (index < 0 || index >= slots.length) return slots;
  return slots.map((id, i) => (i === index ? streamId : id === streamId ? null : id));
}

export const filledCount = (slots: Slots) => slots.filter((id) => id !== null).length;

/** The streams placed in the slots (spec §5: hidden from the available list). */
export const placedIds = (slots: Slots): number[] => slots.filter((id): id is number => id !== null);
