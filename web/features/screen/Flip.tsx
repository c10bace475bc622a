/**
 * Both sides of a flip in the page: what shows now and, while a change waits for its instant,
 * what shows after it — each rendered ahead, one hidden by CSS (flip.css). At the instant the
 * flip scheduler sets one attribute on the document (`data-flip`), and the other side shows: no
 * React render in that frame. React catches up a task later and draws one side again.
 */
import type { ReactElement } from 'react';
import './flip.css';

/** Which side an element belongs to, as `data-stage` says (undefined: both, nothing waits or nothing differs). */
export type FlipSide = 'now' | 'next';

const sameJson = (a: unknown, b: unknown) => a === b || JSON.stringify(a) === JSON.stringify(b);

/**
 * `render(value, side)` draws one side; its root element must carry `data-stage={side}`. With no
 * change waiting (`next` undefined), or nothing different, one element is drawn, without a side.
 */
export function Flip<T>({ now, next, render, same = sameJson }: { now: T; next: T | undefined; render: (value: T, side?: FlipSide) => ReactElement | null; same?: (a: T, b: T) => boolean }) {
  if (next === undefined || same(now, next)) return render(now);
  return (
    <>
      {render(now, 'now')}
      {render(next, 'next')}
    </>
  );
}
