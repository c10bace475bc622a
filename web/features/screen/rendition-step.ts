/**
 * Renditions below what each tile's box allows, for every HLS player on this screen: raised by
 * the frame budget (parts/frame-budget.ts) while the screen drops frames, 0 when it keeps up;
 * applied by the players' level cap (components/Player/capped-levels.ts). A plain value rather
 * than an atom of the app's store: the kiosk's camera started before the app (web/prestart.ts)
 * caps its hls.js the same way, and importing the store would split the app's first files.
 */
let step = 0;
const listeners = new Set<() => void>();

export function renditionStep(): number {
  return step;
}

export function setRenditionStep(next: number): void {
  if (next === step) return;
  step = next;
  for (const listener of listeners) listener();
}

/** Calls `listener` after every change; returns its removal. */
export function onRenditionStep(listener: () => void): () => void {
  listeners.add(listener);
  return () => void listeners.delete(listener);
}
