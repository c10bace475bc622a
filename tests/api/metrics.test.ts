/**
 * `/metrics` for Prometheus: parsed with a text-format parser, every family present, HTTP
 * durations labelled by route template (not the raw path), screens counted by kind; 401
 * without the token, 404 when metrics are off.
 */
import parsePrometheus from 'parse-prometheus-text-format';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { io as ioClient } from 'socket.io-client';
import { startTestApp, type TestApp } from '../support/app.ts';
import { buildStream } from '../support/factories.ts';

const TOKEN = 'metrics-token-0123456789';
let RAW = '';
let app: TestApp;
let off: TestApp;
beforeAll(async () => {
  app = await startTestApp({ hub: true, jobs: { enabled: false }, appOptions: { metricsToken: TOKEN } });
  off = await startTestApp({ database: app.db });
});
afterAll(async () => {
  await off?.close();
  await app?.close();
});

interface Family {
  name: string;
  type: string;
  metrics: { labels?: Record<string, string>; value?: string; buckets?: Record<string, string> }[];
}

async function scrape(): Promise<Family[]> {
  const res = await fetch(`${app.baseUrl}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toContain('text/plain');
  RAW = await res.text();
  return parsePrometheus(RAW) as Family[];
}

describe('GET /metrics', () => {
  it('has every family, with route templates and screens by kind', async () => {
    const stream = await buildStream(app.orm.em.fork(), { name: 'Metered cam' });
    expect((await app.request('GET', `/api/streams/${stream.id}`)).status).toBe(200);
    const wall = ioClient(app.baseUrl, { transports: ['websocket'] });
    await new Promise<void>((resolve) => wall.emit('screen:register', { kind: 'wall' }, () => resolve()));
    try {
      const families = new Map((await scrape()).map((f) => [f.name, f]));
      for (const name of [
        'nw_process_cpu_seconds_total',
        'nw_nodejs_heap_size_used_bytes',
        'nw_http_request_duration_seconds',
        'nw_screens_connected',
        'nw_pushes_total',
        'nw_fanout_duration_seconds',
        'nw_jobs',
        'nw_analyses_total',
        'nw_analysis_duration_seconds',
        'nw_database_available',
        'nw_incidents_open',
      ]) {
        expect(families.has(name), name).toBe(true);
      }
      // The parser keeps a histogram's buckets, not its labels: the series names are read from the text it parsed.
      const routes = [...RAW.matchAll(/^nw_http_request_duration_seconds_count\{[^}]*route="([^"]+)"/gm)].map((m) => m[1]);
      expect(routes).toContain('/api/streams/:id');
      expect(routes.some((r) => /\/api\/streams\/\d/.test(r ?? ''))).toBe(false);
      expect(families.get('nw_screens_connected')!.metrics.find((m) => m.labels?.kind === 'wall')?.value).toBe('1');
      expect(families.get('nw_database_available')!.metrics[0]?.value).toBe('1');
      expect(families.get('nw_jobs')!.type).toBe('GAUGE');
    } finally {
      wall.close();
    }
  });

  it('needs its token, and is absent when metrics are off', async () => {
    expect((await fetch(`${app.baseUrl}/metrics`)).status).toBe(401);
    expect((await fetch(`${app.baseUrl}/metrics`, { headers: { authorization: 'Bearer wrong-token-000000000' } })).status).toBe(401);
    expect((await fetch(`${off.baseUrl}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(404);
  });
});
