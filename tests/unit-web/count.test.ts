import { describe, expect, it } from 'vitest';
import { countOf, formFor, numberOf } from '../../web/lib/count.ts';

describe('counts', () => {
  it.each([
    [0, '0 ratings'],
    [1, '1 rating'],
    [2, '2 ratings'],
    [1204, '1,204 ratings'],
    [1.5, '1.5 ratings'],
  ])('writes %d as "%s"', (n, text) => {
    expect(countOf(n, ['rating', 'ratings'])).toBe(text);
  });

  it('picks the form of a phrase and writes bare numbers', () => {
    expect(formFor(1, ['stream was', 'streams were'])).toBe('stream was');
    expect(formFor(3, ['stream was', 'streams were'])).toBe('streams were');
    expect(numberOf(12345)).toBe('12,345');
  });
});
