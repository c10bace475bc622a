/** A screen that drops frames plays cheaper renditions (web/features/screen/parts/frame-budget.ts). */
import { describe, expect, it } from 'vitest';
import { CALM_WINDOWS, MAX_RENDITION_STEP, nextBudget, type BudgetState } from '../../web/features/screen/parts/frame-budget.ts';
import { onRenditionStep, renditionStep, setRenditionStep } from '../../web/features/screen/rendition-step.ts';

const run = (windows: [number, number][], from: BudgetState = { step: 0, calm: 0 }) => windows.reduce((s, [f, d]) => nextBudget(s, f, d), from);

describe('the rendition step', () => {
  it('steps down one rendition per window that drops more than 5 %, to a floor', () => {
    expect(run([[500, 30]]).step).toBe(1);
    expect(run([[500, 30], [500, 40]]).step).toBe(2);
    expect(run(Array.from({ length: 10 }, () => [500, 200] as [number, number])).step).toBe(MAX_RENDITION_STEP);
  });

  it('holds between 1 % and 5 %, and climbs back one rendition after a calm half minute', () => {
    expect(run([[500, 30], [500, 10]])).toEqual({ step: 1, calm: 0 });
    const calm = Array.from({ length: CALM_WINDOWS }, () => [500, 1] as [number, number]);
    expect(run(calm.slice(0, -1), { step: 1, calm: 0 }).step).toBe(1);
    expect(run(calm, { step: 1, calm: 0 })).toEqual({ step: 0, calm: 0 });
    expect(run([...calm.slice(0, 3), [500, 10], ...calm.slice(0, 3)], { step: 1, calm: 0 }).step).toBe(1); // a bad window restarts the count
  });

  it('a window with too few frames says nothing', () => {
    expect(run([[20, 20]])).toEqual({ step: 0, calm: 0 });
  });
});

describe('the screen\'s rendition step, as the players read it (rendition-step.ts)', () => {
  it('tells its listeners each change once, and no longer once they leave', () => {
    const heard: number[] = [];
    const leave = onRenditionStep(() => heard.push(renditionStep()));
    setRenditionStep(1);
    setRenditionStep(1); // no change: the level caps are not asked again
    setRenditionStep(2);
    leave();
    setRenditionStep(0);
    expect(heard).toEqual([1, 2]);
    expect(renditionStep()).toBe(0);
  });
});
