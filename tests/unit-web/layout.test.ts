import { describe, expect, it } from 'vitest';
import { LAYOUT_TYPES } from '../../src/shared/constants.ts';
import { areasTemplate, tileBox, TILE_AREAS, trackList, wallLayout } from '../../web/components/wall-layout.ts';

/** Every named area of a grid-template-areas table, as its bounding rectangle and cell count. */
function areaShapes(rows: string[]) {
  const cells = rows.map((row) => row.trim().split(/\s+/));
  const shapes = new Map<string, { top: number; left: number; bottom: number; right: number; cells: number }>();
  cells.forEach((row, r) =>
    row.forEach((name, c) => {
      if (name === '.') return;
      const s = shapes.get(name) ?? { top: r, left: c, bottom: r, right: c, cells: 0 };
      shapes.set(name, { top: Math.min(s.top, r), left: Math.min(s.left, c), bottom: Math.max(s.bottom, r), right: Math.max(s.right, c), cells: s.cells + 1 });
    }),
  );
  return { cells, shapes };
}


describe('wallLayout: a template for every layout type and 1-5 streams', () => {
  for (const layoutType of LAYOUT_TYPES) {
    for (let count = 1; count <= 5; count++) {
      it(`${layoutType} with ${count}: one rectangle per tile, rows and columns as declared`, () => {
        const layout = wallLayout(layoutType, count);
        const { cells, shapes } = areaShapes(layout.areas);
        expect(cells.every((row) => row.length === cells[0]!.length)).toBe(true);
        expect(cells.length).toBe(layout.rows.length);
        expect(cells[0]!.length).toBe(layout.columns.length);
        expect([...shapes.keys()].sort()).toEqual(TILE_AREAS.slice(0, count));
        for (const shape of shapes.values()) {
          // CSS grid areas must be rectangles: the cells fill the bounding box exactly.
          expect(shape.cells).toBe((shape.bottom - shape.top + 1) * (shape.right - shape.left + 1));
        }
      });
    }
  }

  it.each([
    ['grid keeps tiles equal', 'grid', 4, ['a b', 'c d']],
    ['grid centres the last row of 3', 'grid', 3, ['a a b b', '. c c .']],
    ['grid centres the last row of 5', 'grid', 5, ['a a b b c c', '. d d e e .']],
    ['mosaic puts two over three for 5', 'mosaic', 5, ['a a a b b b', 'c c d d e e']],
    ['feature gives the first stream the big tile', 'feature', 5, ['a b', 'a c', 'a d', 'a e']],
  ])('%s', (_rule, layoutType, count, areas) => {
    expect(wallLayout(layoutType, count).areas).toEqual(areas);
  });

  it('clamps the count to 1-5 and falls back to grid for an unknown type', () => {
    expect(wallLayout('grid', 9)).toEqual(wallLayout('grid', 5));
    expect(wallLayout('grid', 0)).toEqual(wallLayout('grid', 1));
    expect(wallLayout('spiral', 4)).toEqual(wallLayout('grid', 4));
  });

  it('writes the grid-template-areas value and the track lists', () => {
    expect(areasTemplate(wallLayout('grid', 4))).toBe('"a b" "c d"');
    expect(trackList(wallLayout('mosaic', 3).columns)).toBe('minmax(0, 2fr) minmax(0, 1fr)');
  });
});

/** A box's four lengths, worked out for a container and gap (px), as a browser would compute the calc(). */
function measure(box: { left: string; top: string; width: string; height: string }, width: number, height: number, gap: number) {
  const value = (text: string, size: number) => {
    const m = /^calc\(\(100% - (\d+) \* var\(--gap\)\) \* ([\d.]+) \+ (\d+) \* var\(--gap\)\)$/.exec(text);
    if (!m) throw new Error(`not a box length: ${text}`);
    return (size - Number(m[1]) * gap) * Number(m[2]) + Number(m[3]) * gap;
  };
  return { left: value(box.left, width), top: value(box.top, height), width: value(box.width, width), height: value(box.height, height) };
}

describe('tileBox: where a CSS grid would put each area', () => {
  it.each([
    // grid of 4 on 1000×500 with 10 px gaps: 495×245 cells.
    ['grid', 4, 'd', { left: 505, top: 255, width: 495, height: 245 }],
    // grid of 3: the last row is centred (columns 2-3 of 4).
    ['grid', 3, 'c', { left: 252.5, top: 255, width: 495, height: 245 }],
    // mosaic of 3: a 2fr column holds the big tile over both rows.
    ['mosaic', 3, 'a', { left: 0, top: 0, width: 660, height: 500 }],
    ['mosaic', 3, 'c', { left: 670, top: 255, width: 330, height: 245 }],
    // mosaic of 5: rows of 3fr over 2fr.
    ['mosaic', 5, 'e', { left: 673.333333, top: 304, width: 326.666667, height: 196 }],
    ['feature', 5, 'e', { left: 752.5, top: 382.5, width: 247.5, height: 117.5 }],
  ])('%s of %i, area %s', (layoutType, count, area, expected) => {
    const box = tileBox(wallLayout(layoutType, count), area)!;
    const got = measure(box, 1000, 500, 10);
    for (const key of ['left', 'top', 'width', 'height'] as const) expect(got[key]).toBeCloseTo(expected[key], 3);
  });

  it('has no box for an area the layout lacks', () => {
    expect(tileBox(wallLayout('grid', 2), 'c')).toBeNull();
  });
});
