/**
 * One ticking clock for the whole page: every clock and LOCAL time reads this atom, so a wall
 * has one timer however many clocks it shows. It ticks only while something reads it.
 */
import { atom } from 'jotai';
import { msUntilNextSecond } from './time.ts';

const tickAtom = atom(Date.now());

tickAtom.onMount = (setTick) => {
  let timer: ReturnType<typeof setTimeout>;
  const tick = () => {
    const now = Date.now();
    setTick(now);
    timer = setTimeout(tick, msUntilNextSecond(now));
  };
  tick();
  return () => clearTimeout(timer);
};

/** The current time, updated every second on the second. */
export const nowAtom = atom((get) => new Date(get(tickAtom)));
