/**
 * Where each stream goes on the Live Wall, for each layout_type and 1-5 streams, on a 16:9
 * screen that never scrolls. Pure CSS-grid templates: `areas` name the cells, tile i takes
 * area TILE_AREAS[i]. Shapes were picked so tiles stay close to 16:9 where they can:
 *
 * - grid: equal tiles (3 and 5 centre their last row);
 * - mosaic: a 2fr/1fr split, or for 5 a taller row of two over a row of three (same aspect);
 * - feature: one large tile with the others stacked in a column beside it.
 */
import type { LayoutType } from '../../src/shared/constants.ts';

export interface WallLayout {
  columns: string;
  rows: string;
  areas: string[];
}

export const TILE_AREAS = ['a', 'b', 'c', 'd', 'e'] as const;

const repeat = (n: number) => `repeat(${n}, minmax(0, 1fr))`;

const GRID: Record<number, WallLayout> = {
  1: { columns: repeat(1), rows: repeat(1), areas: ['a'] },
  2: { columns: repeat(2), rows: repeat(1), areas: ['a b'] },
  3: { columns: repeat(4), rows: repeat(2), areas: ['a a b b', '. c c .'] },
  4: { columns: repeat(2), rows: repeat(2), areas: ['a b', 'c d'] },
  5: { columns: repeat(6), rows: repeat(2), areas: ['a a b b c c', '. d d e e .'] },
};

const MOSAIC: Record<number, WallLayout> = {
  1: GRID[1]!,
  2: { columns: 'minmax(0, 2fr) minmax(0, 1fr)', rows: repeat(1), areas: ['a b'] },
  3: { columns: 'minmax(0, 2fr) minmax(0, 1fr)', rows: repeat(2), areas: ['a b', 'a c'] },
  4: { columns: 'minmax(0, 2fr) minmax(0, 1fr)', rows: repeat(3), areas: ['a b', 'a c', 'a d'] },
  5: { columns: repeat(6), rows: 'minmax(0, 3fr) minmax(0, 2fr)', areas: ['a a a b b b', 'c c d d e e'] },
};

const FEATURE: Record<number, WallLayout> = {
  1: GRID[1]!,
  2: { columns: 'minmax(0, 3fr) minmax(0, 1fr)', rows: repeat(1), areas: ['a b'] },
  3: { columns: 'minmax(0, 3fr) minmax(0, 1fr)', rows: repeat(2), areas: ['a b', 'a c'] },
  4: { columns: 'minmax(0, 3fr) minmax(0, 1fr)', rows: repeat(3), areas: ['a b', 'a c', 'a d'] },
  5: { columns: 'minmax(0, 3fr) minmax(0, 1fr)', rows: repeat(4), areas: ['a b', 'a c', 'a d', 'a e'] },
};

const LAYOUTS: Record<LayoutType, Record<number, WallLayout>> = { grid: GRID, mosaic: MOSAIC, feature: FEATURE };

/** The template for `count` tiles (clamped to 1-5); an unknown layout type falls back to grid. */
export function wallLayout(layoutType: LayoutType | string, count: number): WallLayout {
  const n = Math.min(5, Math.max(1, Math.floor(count)));
  const table = LAYOUTS[layoutType as LayoutType] ?? GRID;
  return table[n] ?? GRID[n]!;
}

/** The CSS `grid-template-areas` value. */
export function areasTemplate(layout: WallLayout): string {
  return layout.areas.map((row) => `"${row}"`).join(' ');
}
