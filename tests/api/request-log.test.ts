import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/logger.ts';
import { startTestApp, type TestApp } from '../support/app.ts';

type Line = Record<string, unknown>;
const lines: Line[] = [];
const waiting: { match: (line: Line) => boolean; resolve: (line: Line) => void }[] = [];
const sink = new Writable({
  write(chunk: Buffer, _encoding, done) {
    for (const text of chunk.toString().split('\n').filter(Boolean)) {
      const line = JSON.parse(text) as Line;
      lines.push(line);
      for (const waiter of waiting.filter((w) => w.match(line))) {
        waiting.splice(waiting.indexOf(waiter), 1);
        waiter.resolve(line);
      }
    }
    done();
  },
});

let app: TestApp;
beforeAll(async () => {
  // Debug, so that a health probe's own line is written too: the probe test waits for it.
  // The contract check's own fetch of the document would be a request line too.
  app = await startTestApp({ logger: createLogger('debug', sink), skipContractCheck: true });
});
afterAll(async () => app?.close());

const isRequestLine = (l: Line) => l.msg === 'request completed' || l.msg === 'request errored';
const requestLines = () => lines.filter(isRequestLine);

/**
 * The log line of one request. pino-http writes it when the server finishes the response,
 * which may be after the client has read the answer: wait for the line, not for time.
 */
function requestLine(method: string, url: string): Promise<Line> {
  const match = (l: Line) => isRequestLine(l) && (l.req as { method?: string; url?: string } | undefined)?.method === method && (l.req as { url?: string }).url === url;
  const written = lines.find(match);
  if (written) return Promise.resolve(written);
  return new Promise((resolve, reject) => {
    // Only a failure's deadline (a line that never comes), never a reason to pass.
    const timer = setTimeout(() => reject(new Error(`no log line for ${method} ${url}`)), 5_000);
    waiting.push({
      match,
      resolve: (line) => {
        clearTimeout(timer);
        resolve(line);
      },
    });
  });
}

describe('request log', () => {
  it('writes one JSON line per request with method, url, status and time', async () => {
    lines.length = 0;
    await app.request('GET', '/api/streams?active=true');
    await app.request('POST', '/api/streams', { name: '' });
    const [get, post] = await Promise.all([requestLine('GET', '/api/streams?active=true'), requestLine('POST', '/api/streams')]);
    expect(requestLines()).toHaveLength(2);
    expect(get).toMatchObject({ level: 30, req: { method: 'GET', url: '/api/streams?active=true' }, res: { statusCode: 200 } });
    expect(typeof get.responseTime).toBe('number');
    expect(post).toMatchObject({ level: 30, req: { method: 'POST' }, res: { statusCode: 400 } });
  });

  it('keeps health probes out of the info log', async () => {
    lines.length = 0;
    await app.request('GET', '/healthz');
    // The probe's own line, written below info: a logger at info (production) drops it.
    const probe = await requestLine('GET', '/healthz');
    expect(probe.level).toBe(20);
    expect(requestLines().filter((l) => (l.level as number) >= 30)).toHaveLength(0);
  });

  it('never logs cookies or authorization headers', async () => {
    lines.length = 0;
    await app.request('GET', '/api/streams', undefined, { headers: { cookie: 'nw_session=secret', authorization: 'Bearer secret' } });
    await requestLine('GET', '/api/streams');
    expect(JSON.stringify(lines)).not.toContain('secret');
  });
});
