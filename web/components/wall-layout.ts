/**
 * Where each stream goes on the Live Wall, for each layout_type and 1-5 streams, on a 16:9
 * screen that never scrolls. A layout is a grid: track weights (fr) for its columns and rows,
 * and `areas` naming the cells; tile i takes area TILE_AREAS[i]. Shapes were picked so tiles
 * stay close to 16:9 where they can:
 *
 * - grid: equal tiles (3 and 5 centre their last row);
 * - mosaic: a 2fr/1fr split, or for 5 a taller row of two over a row of three (same aspect);
 * - feature: one large tile with the others stacked in a column beside it.
 *
 * The wall places each tile by its box (tileBox) rather than as a grid item, so a tile can have
 * one box now and another after the next flip, both decided before the flip's instant.
 */
import type { LayoutType } from '../../src/shared/constants.ts';

export interface WallLayout {
  /** Column weights, as fr. */
  columns: number[];
  /** Row weights, as fr. */
  rows: number[];
  areas: string[];
}

export const TILE_AREAS = ['a', 'b', 'c', 'd', 'e'] as const;

const equal = (n: number) => Array<number>(n).fill(1);

const GRID: Record<number, WallLayout> = {
  1: { columns: equal(1), rows: equal(1), areas: ['a'] },
  2: { columns: equal(2), rows: equal(1), areas: ['a b'] },
  3: { columns: equal(4), rows: equal(2), areas: ['a a b b', '. c c .'] },
  4: { columns: equal(2), rows: equal(2), areas: ['a b', 'c d'] },
  5: { columns: equal(6), rows: equal(2), areas: ['a a b b c c', '. d d e e .'] },
};

const MOSAIC: Record<number, WallLayout> = {
  1: GRID[1]!,
  2: { columns: [2, 1], rows: equal(1), areas: ['a b'] },
  3: { columns: [2, 1], rows: equal(2), areas: ['a b', 'a c'] },
  4: { columns: [2, 1], rows: equal(3), areas: ['a b', 'a c', 'a d'] },
  5: { columns: equal(6), rows: [3, 2], areas: ['a a a b b b', 'c c d d e e'] },
};

const FEATURE: Record<number, WallLayout> = {
  1: GRID[1]!,
  2: { columns: [3, 1], rows: equal(1), areas: ['a b'] },
  3: { columns: [3, 1], rows: equal(2), areas: ['a b', 'a c'] },
  4: { columns: [3, 1], rows: equal(3), areas: ['a b', 'a c', 'a d'] },
  5: { columns: [3, 1], rows: equal(4), areas: ['a b', 'a c', 'a d', 'a e'] },
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

/** A CSS track list for weights: `minmax(0, 2fr) minmax(0, 1fr)`. */
export function trackList(weights: readonly number[]): string {
  return weights.map((w) => `minmax(0, ${w}fr)`).join(' ');
}

/** Where a tile sits in its grid container, as CSS lengths (`var(--gap)` is the gap between tracks). */
export interface TileBox {
  left: string;
  top: string;
  width: string;
  height: string;
}

/** One axis of an area: where it starts and how much it spans, as a share of the space left after the gaps plus whole gaps. */
function span(weights: readonly number[], first: number, last: number): { start: string; size: string } {
  const total = weights.reduce((a, b) => a + b, 0);
  const before = weights.slice(0, first).reduce((a, b) => a + b, 0) / total;
  const inside = weights.slice(first, last + 1).reduce((a, b) => a + b, 0) / total;
  const free = `(100% - ${weights.length - 1} * var(--gap))`;
  const share = (n: number) => Number(n.toFixed(6));
  return {
    start: `calc(${free} * ${share(before)} + ${first} * var(--gap))`,
    size: `calc(${free} * ${share(inside)} + ${last - first} * var(--gap))`,
  };
}

/** The box of `area` in `layout`, exactly where a CSS grid with the same tracks and gap would put it; null if the layout has no such area. */
export function tileBox(layout: WallLayout, area: string): TileBox | null {
  let top = Infinity;
  let bottom = -1;
  let left = Infinity;
  let right = -1;
  layout.areas.forEach((row, r) =>
    row
      .trim()
      .split(/\s+/)
      .forEach((name, c) => {
        if (name !== area) return;
        top = Math.min(top, r);
        bottom = Math.max(bottom, r);
        left = Math.min(left, c);
        right = Math.max(right, c);
      }),
  );
  if (bottom < 0) return null;
  const x = span(layout.columns, left, right);
  const y = span(layout.rows, top, bottom);
  return { left: x.start, top: y.start, width: x.size, height: y.size };
}
