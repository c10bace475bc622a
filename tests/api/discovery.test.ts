import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DiscoveryJobDto, DiscoverySourceDto, DiscoveryStatDto } from '../../src/shared/api/index.ts';
import { DiscoveryJob, DiscoverySource } from '../../src/modules/discovery/discovery.entity.ts';
import { startTestApp, type TestApp } from '../support/app.ts';

let app: TestApp;
let explore: DiscoverySource;
beforeAll(async () => {
  app = await startTestApp();
  const em = app.orm.em.fork();
  explore = em.create(DiscoverySource, { name: 'Explore.org', platform: 'youtube', url: 'https://www.youtube.com/@exploreorg' });
  const idle = em.create(DiscoverySource, { name: 'Alveus', platform: 'twitch', active: false });
  await em.flush();
  for (let i = 0; i < 12; i++) {
    em.create(DiscoveryJob, {
      source: explore,
      status: i === 11 ? 'running' : i % 4 === 0 ? 'failed' : 'completed',
      errorMessage: i % 4 === 0 ? 'Quota exceeded' : null,
      streamsDiscovered: 3,
      streamsAdded: 1,
      createdAt: new Date(Date.UTC(2026, 10, 1, 0, i)),
    });
  }
  em.create(DiscoveryJob, { source: null, status: 'completed', createdAt: new Date(Date.UTC(2026, 9, 1)) });
  await em.flush();
  void idle;
});
afterAll(async () => app?.close());

describe('discovery read endpoints', () => {
  it('lists sources by name', async () => {
    const res = await app.request<DiscoverySourceDto[]>('GET', '/api/discovery/sources');
    expect(res.status).toBe(200);
    expect(res.body.map((s) => [s.name, s.platform, s.active])).toEqual([
      ['Alveus', 'twitch', false],
      ['Explore.org', 'youtube', true],
    ]);
  });

  it('lists the 10 newest jobs by default with their source name', async () => {
    const res = await app.request<DiscoveryJobDto[]>('GET', '/api/discovery/jobs');
    expect(res.body).toHaveLength(10);
    expect(res.body[0]).toMatchObject({ status: 'running', source_id: explore.id, source_name: 'Explore.org' });
    const times = res.body.map((j) => j.created_at);
    expect([...times].sort().reverse()).toEqual(times);
  });

  it('honours limit and refuses one out of range', async () => {
    expect((await app.request<DiscoveryJobDto[]>('GET', '/api/discovery/jobs?limit=3')).body).toHaveLength(3);
    expect((await app.request<DiscoveryJobDto[]>('GET', '/api/discovery/jobs?limit=100')).body).toHaveLength(13);
    expect((await app.request('GET', '/api/discovery/jobs?limit=0')).status).toBe(400);
    expect((await app.request('GET', '/api/discovery/jobs?limit=101')).status).toBe(400);
    expect((await app.request('GET', '/api/discovery/jobs?limit=ten')).status).toBe(400);
  });

  it('sums each source into discovery stats (the view), sources never run included', async () => {
    const res = await app.request<DiscoveryStatDto[]>('GET', '/api/discovery/stats');
    expect(res.body).toEqual([
      { source_id: expect.any(Number), source_name: 'Alveus', last_run: null, total_added: 0, total_discovered: 0 },
      { source_id: explore.id, source_name: 'Explore.org', last_run: '2026-11-01T00:11:00.000Z', total_added: 12, total_discovered: 36 },
    ]);
  });
});
