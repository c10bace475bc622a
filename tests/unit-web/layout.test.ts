import { describe, expect, it } from 'vitest';
import { LAYOUT_TYPES } from '../../src/shared/constants.ts';
import { areasTemplate, TILE_AREAS, wallLayout } from '../../web/components/wall-layout.ts';

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

const trackCount = (template: string) => {
  const repeat = /^repeat\((\d+),/.exec(template);
  return repeat ? Number(repeat[1]) : template.trim().split(/\s+(?![^(]*\))/).length;
};

describe('wallLayout: a template for every layout type and 1-5 streams', () => {
  for (const layoutType of LAYOUT_TYPES) {
    for (let count = 1; count <= 5; count++) {
      it(`${layoutType} with ${count}: one rectangle per tile, rows and columns as declared`, () => {
        const layout = wallLayout(layoutType, count);
        const { cells, shapes } = areaShapes(layout.areas);
        expect(cells.every((row) => row.length === cells[0]!.length)).toBe(true);
        expect(cells.length).toBe(trackCount(layout.rows));
        expect(cells[0]!.length).toBe(trackCount(layout.columns));
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

  it('writes the grid-template-areas value', () => {
    expect(areasTemplate(wallLayout('grid', 4))).toBe('"a b" "c d"');
  });
});
