/**
 * How often a screen's heavy parts (tiles, cards, players) rendered and started effects. The
 * flip scheduler reads it around each flip frame — none may happen there: React catches up a
 * task later (issue 30) — and reports the figures with the flip (`nw:flip`), where tests and
 * bench:wall read them.
 */
export const renderCount = { renders: 0, effects: 0 };

/** Counts a render of the calling component. */
export function countRender(): void {
  renderCount.renders++;
}

/** Counts an effect the calling component started. */
export function countEffect(): void {
  renderCount.effects++;
}
