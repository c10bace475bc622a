/**
 * Property: no input to any write endpoint — random JSON, hostile values in the right field
 * names, wrong types, huge numbers, control characters — gets a 5xx or takes the server down.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seed } from '../../src/modules/seed/seed.ts';
import { createLogger } from '../../src/logger.ts';
import { startTestApp, type TestApp } from '../support/app.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
  await seed(app.orm.em.fork(), { demo: true, logger: createLogger('silent') });
});
afterAll(async () => app?.close());

const WRITES = [
  ['POST', '/api/streams'],
  ['PUT', '/api/streams'],
  ['DELETE', '/api/streams'],
  ['POST', '/api/scenes'],
  ['PUT', '/api/scenes'],
  ['DELETE', '/api/scenes'],
  ['PUT', '/api/config/default-scene'],
  ['POST', '/api/discovery/extract'],
  ['POST', '/api/discovery/submit'],
  ['POST', '/api/submissions/approve'],
  ['POST', '/api/submissions/reject'],
  ['POST', '/api/screens/command'],
  ['POST', '/api/auth/tokens'],
] as const;

const FIELDS = [
  'id', 'name', 'url', 'fallback_url', 'description', 'category', 'quality', 'active', 'location_name', 'latitude',
  'longitude', 'timezone', 'prompt', 'selection_algorithm', 'max_streams', 'layout_type', 'stream_ids', 'scene_id',
  'submittedBy', 'title', 'note', 'command', '__proto__', 'constructor',
];

const hostileValue = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.constantFrom(
    '', ' ', '\u0000', 'a\u0000b', '\ud800', '💥'.repeat(300), 'x'.repeat(5000), "'; drop table streams; --",
    'javascript:alert(1)', 'https://', 'https://youtu.be/ydYDqZQpim8', 'nature', 'manual', 'grid',
    -1, 0, 1, 2, 5, 6, 2 ** 31, 2 ** 53, -(2 ** 63), 1e308, 3.5, true, false, null,
    [], [null], [1, 1], [1, 2, 3, 4, 5, 6], [2 ** 40], { nested: { deep: [1] } },
  ),
  fc.integer(),
  fc.double(),
  fc.string({ maxLength: 40 }),
  fc.array(fc.oneof(fc.integer({ min: -3, max: 30 }), fc.constant(null)), { maxLength: 7 }),
);

const hostileBody = fc.oneof(
  fc.dictionary(fc.constantFrom(...FIELDS), hostileValue, { maxKeys: 8 }),
  fc.jsonValue({ maxDepth: 4 }),
);

describe('write endpoints under random and hostile input', () => {
  it.each(WRITES)('%s %s answers 2xx or 4xx, never 5xx', async (method, path) => {
    await fc.assert(
      fc.asyncProperty(hostileBody, async (body) => {
        const res = await app.request(method, path, JSON.stringify(body));
        if (res.status >= 500) throw new Error(`${res.status} for ${JSON.stringify(body)}: ${JSON.stringify(res.body)}`);
        expect(res.status).toBeGreaterThanOrEqual(200);
        expect(res.status).toBeLessThan(500);
      }),
      { numRuns: 150 },
    );
    expect((await app.request('GET', '/healthz')).status).toBe(200);
  });

  it('raw bytes that are not JSON are refused with 400', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ minLength: 1, maxLength: 60 }), async (text) => {
        const res = await app.request('POST', '/api/streams', text);
        expect(res.status).toBeGreaterThanOrEqual(400);
        expect(res.status).toBeLessThan(500);
      }),
      { numRuns: 100 },
    );
  });
});
