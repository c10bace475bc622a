import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/logger.ts';
import { startTestApp, type TestApp } from '../support/app.ts';

const lines: Record<string, unknown>[] = [];
const sink = new Writable({
  write(chunk: Buffer, _encoding, done) {
    for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
    done();
  },
});

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ logger: createLogger('info', sink) });
});
afterAll(async () => app?.close());

const requestLines = () => lines.filter((l) => l.msg === 'request completed' || l.msg === 'request errored');

describe('request log', () => {
  it('writes one JSON line per request with method, url, status and time', async () => {
    lines.length = 0;
    await app.request('GET', '/api/streams?active=true');
    await app.request('POST', '/api/streams', { name: '' });
    await new Promise((r) => setTimeout(r, 20));
    const logged = requestLines();
    expect(logged).toHaveLength(2);
    expect(logged[0]).toMatchObject({ level: 30, req: { method: 'GET', url: '/api/streams?active=true' }, res: { statusCode: 200 } });
    expect(typeof logged[0]!.responseTime).toBe('number');
    expect(logged[1]).toMatchObject({ req: { method: 'POST' }, res: { statusCode: 400 } });
  });

  it('keeps health probes out of the info log', async () => {
    lines.length = 0;
    await app.request('GET', '/healthz');
    await new Promise((r) => setTimeout(r, 20));
    expect(requestLines()).toHaveLength(0);
  });

  it('never logs cookies or authorization headers', async () => {
    lines.length = 0;
    await app.request('GET', '/api/streams', undefined, { headers: { cookie: 'nw_session=secret', authorization: 'Bearer secret' } });
    await new Promise((r) => setTimeout(r, 20));
    expect(JSON.stringify(lines)).not.toContain('secret');
  });
});
