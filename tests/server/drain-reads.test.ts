/**
 * A draining node behind a proxy hands reads back (504, which the shipped nginx passes to another
 * node and counts against this one, so it stops sending it writes before it stops listening);
 * writes are still taken, health probes still answer, and without a proxy nothing is refused.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { adminHeaders, startTestApp, type TestApp } from '../support/app.ts';

const apps: TestApp[] = [];
afterAll(async () => Promise.all(apps.map((a) => a.close())));

const get = (app: TestApp, path: string) => fetch(`${app.baseUrl}${path}`, { headers: adminHeaders });
const post = (app: TestApp, name: string) =>
  fetch(`${app.baseUrl}/api/streams`, {
    method: 'POST',
    headers: { ...adminHeaders, 'content-type': 'application/json' },
    body: JSON.stringify({ name, url: `https://example.org/${encodeURIComponent(name)}.m3u8`, category: 'ocean' }),
  });

describe('reads while draining', () => {
  it('behind a proxy: reads are answered 504 with the reason, writes are taken, /readyz says draining', async () => {
    const app = await startTestApp({ appOptions: { trustProxy: true } });
    apps.push(app);
    expect((await get(app, '/api/streams')).status).toBe(200);
    app.app.drain.begin();
    const read = await get(app, '/api/streams');
    expect(read.status).toBe(504);
    expect(read.headers.get('retry-after')).toBe('1');
    expect(read.headers.get('connection')).toBe('close');
    expect(await read.json()).toEqual({ error: 'This node is shutting down; ask another one' });
    expect((await fetch(`${app.baseUrl}/api/streams`, { method: 'HEAD', headers: adminHeaders })).status).toBe(504);
    const write = await post(app, 'Written while draining');
    expect(write.status).toBe(201);
    expect((await get(app, '/readyz')).status).toBe(503);
    expect((await get(app, '/healthz')).status).toBe(200);
    expect(app.app.drain.inFlight).toBe(0);
  });

  it('without a proxy: a draining node still answers reads', async () => {
    const app = await startTestApp();
    apps.push(app);
    app.app.drain.begin();
    expect((await get(app, '/api/streams')).status).toBe(200);
  });
});
