import { describe, expect, it } from 'vitest';
import { slugify, uniqueSlug } from '../../src/shared/scenes/slug.ts';

describe('slugify (spec §5)', () => {
  it.each([
    ['lower-cases', 'Ocean Life', 'ocean-life'],
    ['trims', '   Volcanoes  ', 'volcanoes'],
    ['removes characters other than letters, digits, spaces and hyphens', 'Fire & Water!', 'fire-water'],
    ['turns whitespace runs into one hyphen', 'Big \t\n  Cats', 'big-cats'],
    ['collapses repeated hyphens', 'A -- B', 'a-b'],
    ['strips leading and trailing hyphens', '--Edge-Case--', 'edge-case'],
    ['keeps digits', 'Top 5 Cams 2026', 'top-5-cams-2026'],
    ['keeps letters beyond ASCII', 'Étang du Nord', 'étang-du-nord'],
    ['drops underscores and punctuation', 'snake_case.name', 'snakecasename'],
    ['is empty without letters or digits', '!!! ???', ''],
  ])('%s', (_rule, input, expected) => {
    expect(slugify(input)).toBe(expected);
  });
});

describe('uniqueSlug (spec §5)', () => {
  it.each([
    ['uses the slug when unused', 'Ocean Life', [], 'ocean-life'],
    ['appends -1 when the slug is used', 'Ocean Life', ['ocean-life'], 'ocean-life-1'],
    ['counts up until unused', 'Ocean Life', ['ocean-life', 'ocean-life-1', 'ocean-life-2'], 'ocean-life-3'],
    ['fills the first free number', 'Ocean Life', ['ocean-life', 'ocean-life-2'], 'ocean-life-1'],
    ['ignores unrelated slugs', 'Ocean', ['ocean-life'], 'ocean'],
    ['returns empty for a name without letters', '***', ['x'], ''],
  ])('%s', (_rule, name, taken, expected) => {
    expect(uniqueSlug(name, new Set(taken))).toBe(expected);
  });
});
