import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ErrorDto } from '../../src/shared/api/index.ts';
import { Stream } from '../../src/modules/streams/stream.entity.ts';
import { startTestApp, type TestApp } from '../support/app.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => app?.close());

describe('malformed requests get a readable 4xx, never a 500', () => {
  it('bad JSON is 400 "Invalid JSON body"', async () => {
    const res = await app.request<ErrorDto>('POST', '/api/streams', '{"name": "x",');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'Invalid JSON body' });
  });

  it.each(['"just a string"', '42', 'true', 'null', '[1, 2]', '[]'])('valid JSON that is not an object (%s) is 400 "The request body must be a JSON object"', async (body) => {
    for (const path of ['/api/streams', '/api/discovery/submit']) {
      const res = await app.request<ErrorDto>('POST', path, body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'The request body must be a JSON object' });
    }
    expect(await app.orm.em.fork().count(Stream, {})).toBe(0);
  });

  it('a body over the limit is 413 and nothing is written', async () => {
    const res = await app.request<ErrorDto>('POST', '/api/streams', { name: 'x', url: 'https://a.org/a.m3u8', description: 'x'.repeat(200_000) });
    expect(res.status).toBe(413);
    expect(res.body.error).toBe('Request body is too large');
    expect(await app.orm.em.fork().count(Stream, {})).toBe(0);
  });

  it.each(['gzip', 'deflate', 'br'])('a body that claims Content-Encoding: %s without being compressed is 400', async (encoding) => {
    for (const path of ['/api/streams', '/api/auth/login']) {
      const res = await app.request<ErrorDto>('POST', path, '{"name":"x"}', { headers: { 'content-encoding': encoding } });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe(`Request body could not be decoded as ${encoding} (Content-Encoding)`);
    }
  });

  it('a body with an unknown Content-Encoding is 415', async () => {
    const res = await app.request<ErrorDto>('POST', '/api/streams', '{"name":"x"}', { headers: { 'content-encoding': 'zstd-not-really' } });
    expect(res.status).toBe(415);
  });

  it('a body that is not JSON is treated as empty and fails validation', async () => {
    const res = await app.request<ErrorDto>('POST', '/api/streams', 'name=x&url=y', { headers: { 'content-type': 'text/plain' } });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/^name: /);
  });

  it('an unknown endpoint is a JSON 404', async () => {
    const res = await app.request<ErrorDto>('GET', '/api/nothing-here');
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('No such endpoint: GET /api/nothing-here');
  });

  it('a wrong method is 405 with Allow', async () => {
    const res = await app.request<ErrorDto>('PATCH', '/api/streams', {});
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toMatch(/GET/);
  });

  it('deeply nested JSON is refused, not a crash', async () => {
    const deep = '['.repeat(5000) + ']'.repeat(5000);
    const res = await app.request('POST', '/api/scenes', deep);
    expect([400, 413]).toContain(res.status);
    expect((await app.request('GET', '/healthz')).status).toBe(200);
  });

  it('a percent-encoding error in the path is 400 or 404, not 500', async () => {
    const res = await fetch(`${app.baseUrl}/api/scenes/%E0%A4%A`);
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
  });
});
