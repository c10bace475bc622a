/** The evaluation screen's rules (spec §9). */
import { describe, expect, it } from 'vitest';
import { evaluationColor, evaluatorLabel, keyAction, progressPercent, RATING_LABELS } from '../../web/features/evaluate/evaluate-rules.ts';

describe('evaluation rules', () => {
  it('labels the ratings as the spec does', () => {
    expect(RATING_LABELS).toEqual(['Poor', 'Fair', 'Good', 'Great', 'Excel']);
  });

  it.each([
    [{ pending: 0, completedToday: 0 }, 100],
    [{ pending: 0, completedToday: 7 }, 100],
    [{ pending: 3, completedToday: 1 }, 25],
    [{ pending: 5, completedToday: 0 }, 0],
  ])('progress %o → %i%%', (status, percent) => {
    expect(progressPercent(status)).toBe(percent);
  });

  it('colours scores 4+ green, 3+ yellow, otherwise red, and masks raters', () => {
    expect([4.2, 4, 3.99, 3, 2.9].map(evaluationColor)).toEqual(['green', 'green', 'yellow', 'yellow', 'red']);
    expect(evaluatorLabel('evaluator_1f2e3d4c-aaaa-bbbb-cccc-0123456789ab')).toBe('Anonymous 89ab');
    expect(evaluatorLabel('someone')).toBe('someone');
  });

  it('maps keys: 1–5 rate, Space and → skip, S toggles stats, others nothing', () => {
    expect(keyAction('3')).toEqual({ kind: 'rate', value: 3 });
    expect(keyAction(' ')).toEqual({ kind: 'skip' });
    expect(keyAction('ArrowRight')).toEqual({ kind: 'skip' });
    expect(keyAction('S')).toEqual({ kind: 'stats' });
    expect(keyAction('6')).toBeNull();
    expect(keyAction('Enter')).toBeNull();
  });
});
