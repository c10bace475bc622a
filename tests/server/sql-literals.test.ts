/**
 * The ORM writes values into the SQL text; src/database/platform.ts escapes strings with
 * replaces instead of MikroORM's character loop. The literal must be exactly libpq's (pg's port
 * of PQescapeLiteral is the reference), and strings must come back from the database unchanged.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { escapeLiteral, NatureWallPlatform } from '../../src/database/platform.ts';
import { startTestApp, type TestApp } from '../support/app.ts';

const tricky = [
  '',
  "'",
  "''",
  '\\',
  "\\'",
  "it's a \\ back\\\\slash",
  'E\'\\x00\'',
  '?',
  '??',
  '\\?',
  'line\nbreak\ttab\r',
  'ocean 🌊 cam',
  '\uD800 lone high, lone low \uDC00',
  JSON.stringify([{ screen: "wall:o'brien\\1", streams: [1, null, 3] }]),
];

function randomText(random: () => number): string {
  const alphabet = ["'", '\\', '"', 'a', ' ', '?', '$', '\n', 'é', '🌊', '\uD800'];
  return Array.from({ length: Math.floor(random() * 40) }, () => alphabet[Math.floor(random() * alphabet.length)]).join('');
}

describe('SQL string literals', () => {
  it('are what libpq would write, for every kind of string', () => {
    let seed = 42;
    const random = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
    for (const text of [...tricky, ...Array.from({ length: 500 }, () => randomText(random))]) {
      expect(escapeLiteral(text)).toBe(pg.escapeLiteral(text));
    }
  });

  describe('through the ORM', () => {
    let app: TestApp;
    beforeAll(async () => {
      app = await startTestApp();
    });
    afterAll(async () => app?.close());

    it('runs on the platform with the fast escape', () => {
      expect(app.orm.em.getPlatform()).toBeInstanceOf(NatureWallPlatform);
      expect(app.orm.em.getConnection().getPlatform()).toBeInstanceOf(NatureWallPlatform);
    });

    it('hands back every string it was given, one at a time and inside a JSON value', async () => {
      const em = app.orm.em.fork();
      const texts = tricky.filter((t) => !t.includes('\uD800') && !t.includes('\uDC00'));
      for (const text of texts) {
        const [row] = await em.execute<{ text: string }[]>('select ?::text as text', [text]);
        expect(row?.text).toBe(text);
      }
      const [row] = await em.execute<{ texts: string[] }[]>('select array(select jsonb_array_elements_text(?::jsonb)) as texts', [JSON.stringify(texts)]);
      expect(row?.texts).toEqual(texts);
    });
  });
});
