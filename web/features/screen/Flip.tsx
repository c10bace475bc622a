/**
 * Both sides of a flip in the page: what shows now and, while a change waits for its instant,
 * what shows after it — each rendered ahead and laid out, the waiting one transparent (flip.css).
 * At the instant the flip scheduler changes one attribute on the document (`data-side`) and the
 * other side shows: no React render, no layout of new text in that frame. React catches up a
 * task later and keeps the side that now shows (the same element: its key is its value).
 */
import { Fragment, type ReactElement } from 'react';
import './flip.css';

/** Which side an element belongs to (undefined: both — nothing waits, or nothing differs). */
export type FlipSide = 'now' | 'next';

/**
 * What an element of one side carries: its side, and — for the side still waiting — out of the
 * accessibility tree and of the tab order (the now side leaves both when React catches up).
 */
export function sideProps(side: FlipSide | undefined): { 'data-stage'?: FlipSide; 'aria-hidden'?: true; inert?: boolean } {
  if (!side) return {};
  return side === 'next' ? { 'data-stage': side, 'aria-hidden': true, inert: true } : { 'data-stage': side };
}

const keyOf = (value: unknown) => JSON.stringify(value) ?? 'undefined';

/**
 * `render(value, side)` draws one side; its root element must spread `sideProps(side)`. With no
 * change waiting (`next` undefined), or nothing different, one element is drawn, without a side.
 * Where a side is text in the page's flow, put the Flip in a `.flip-stack`: the waiting side then
 * lies over the shown one, the same width, without taking room.
 */
export function Flip<T>({ now, next, render }: { now: T; next: T | undefined; render: (value: T, side?: FlipSide) => ReactElement | null }) {
  const nowKey = keyOf(now);
  const sides: [T, FlipSide | undefined][] = next === undefined || keyOf(next) === nowKey ? [[now, undefined]] : [[now, 'now'], [next, 'next']];
  return sides.map(([value, side]) => <Fragment key={keyOf(value)}>{render(value, side)}</Fragment>);
}
