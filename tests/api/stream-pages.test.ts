/** GET /api/streams paging: keyset pages in every sort add up to the whole, sorted list; search and filters; bad input is a 400. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StreamAnalyticsDto, StreamDto, StreamPageDto } from '../../src/shared/api/index.ts';
import { startTestApp, type TestApp } from '../support/app.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
  // 130 streams, with ties on created_at, names differing in case, some unscored, some inactive.
  await app.orm.em.fork().getConnection().execute(`
    insert into streams (name, url, normalized_url, category, quality, active, quality_score, location_name, created_at, updated_at)
    select case when i % 3 = 0 then 'alpha cam ' || i else 'Zulu Cam ' || i end,
      'https://cams.example.org/' || i || '.m3u8', 'cams.example.org/' || i || '.m3u8',
      (array['wildlife','ocean','volcano','waterfall','nature'])[1 + i % 5], 'hd', i % 7 <> 0,
      case when i % 4 = 0 then null else (i * 37) % 101 end,
      case when i = 42 then 'Brooks Falls, Alaska' else null end,
      timestamptz '2026-11-01' + ((i / 2) || ' minutes')::interval, now()
    from generate_series(1, 130) i`);
});
afterAll(async () => app?.close());

async function walk(query: string): Promise<StreamDto[]> {
  const out: StreamDto[] = [];
  let cursor: string | null = null;
  for (let guard = 0; guard < 100; guard++) {
    const res: { status: number; body: StreamPageDto } = await app.request<StreamPageDto>('GET', `/api/streams?limit=17&${query}${cursor ? `&cursor=${cursor}` : ''}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    out.push(...res.body.streams);
    cursor = res.body.next_cursor;
    if (!cursor) return out;
  }
  throw new Error('never reached the last page');
}

describe('stream pages', () => {
  it('keeps the spec\'s whole list without paging parameters', async () => {
    const res = await app.request<StreamDto[]>('GET', '/api/streams');
    expect(Array.isArray(res.body)).toBe(true);
  });

  it('walks every sort to the same set, in order, without repeats', async () => {
    const all = (await app.request<StreamDto[]>('GET', '/api/streams')).body;
    const byNewest = [...all].sort((a, b) => b.created_at.localeCompare(a.created_at) || b.id - a.id);
    const byName = [...all].sort((a, b) => (a.name.toLowerCase() < b.name.toLowerCase() ? -1 : a.name.toLowerCase() > b.name.toLowerCase() ? 1 : a.id - b.id));
    const byQuality = [...all].sort((a, b) => (b.quality_score ?? -1) - (a.quality_score ?? -1) || b.id - a.id);
    expect((await walk('sort=newest')).map((s) => s.id)).toEqual(byNewest.map((s) => s.id));
    expect((await walk('sort=name')).map((s) => s.id)).toEqual(byName.map((s) => s.id));
    expect((await walk('sort=quality')).map((s) => s.id)).toEqual(byQuality.map((s) => s.id));
    const lower = (s: StreamDto) => `${s.category}\u0001${s.name.toLowerCase()}`;
    const byCategory = [...all].sort((a, b) => (lower(a) < lower(b) ? -1 : lower(a) > lower(b) ? 1 : a.id - b.id));
    expect((await walk('sort=category')).map((s) => s.id)).toEqual(byCategory.map((s) => s.id));
  });

  it.each([
    ['A', (q: number | null) => q !== null && q >= 80],
    ['B', (q: number | null) => q !== null && q >= 60 && q < 80],
    ['C', (q: number | null) => q !== null && q >= 40 && q < 60],
    ['failed', (q: number | null) => q !== null && q > 0 && q < 40],
    ['not-analyzed', (q: number | null) => q === null],
  ] as const)('filters by the grade bucket %s (spec §5)', async (grade, inBucket) => {
    const all = (await app.request<StreamDto[]>('GET', '/api/streams')).body;
    const page = await walk(`grade=${grade}&sort=quality`);
    expect(page.map((s) => s.id).sort((a, b) => a - b)).toEqual(all.filter((s) => inBucket(s.quality_score)).map((s) => s.id).sort((a, b) => a - b));
  });

  it('counts the pool under the same filters (analytics)', async () => {
    const all = (await app.request<StreamDto[]>('GET', '/api/streams')).body;
    const whole = (await app.request<StreamAnalyticsDto>('GET', '/api/streams/analytics')).body;
    expect(whole.found).toBe(all.length);
    expect(whole.active).toBe(all.filter((s) => s.active).length);
    expect(whole.analyzed).toBe(all.filter((s) => s.quality_score !== null).length);
    expect(whole.by_category.ocean).toBe(all.filter((s) => s.category === 'ocean').length);
    expect(whole.by_grade['not-analyzed']).toBe(all.filter((s) => s.quality_score === null).length);
    expect(whole.histogram.reduce((a, b) => a + b, 0)).toBe(whole.analyzed);
    const filtered = (await app.request<StreamAnalyticsDto>('GET', '/api/streams/analytics?category=ocean&active=true&grade=A')).body;
    expect(filtered.found).toBe(all.filter((s) => s.category === 'ocean' && s.active && (s.quality_score ?? -1) >= 80).length);
    expect((await app.anonymous('GET', '/api/streams/analytics')).status).toBe(401);
  });

  it('searches categories by the same rule (spec §5: name, location name or category), and looks streams up by id', async () => {
    const all = (await app.request<StreamDto[]>('GET', '/api/streams')).body;
    const volcano = await walk('q=VOLCANO');
    expect(volcano.map((s) => s.id).sort((a, b) => a - b)).toEqual(all.filter((s) => s.category === 'volcano').map((s) => s.id).sort((a, b) => a - b));
    const picked = [all[3]!.id, all[7]!.id, all[3]!.id];
    const byIds = await app.request<StreamPageDto>('GET', `/api/streams?ids=${picked.join(',')}`);
    expect(byIds.body.streams.map((s) => s.id).sort((a, b) => a - b)).toEqual([all[3]!.id, all[7]!.id].sort((a, b) => a - b));
    const tooMany = await app.request<{ error: string }>('GET', `/api/streams?ids=${Array.from({ length: 201 }, (_, i) => i + 1).join(',')}`);
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.error).toContain('ids must be up to 200 stream ids');
  });

  it('searches names, places and addresses, filters by category and activity, and counts the matches', async () => {
    const search = await app.request<StreamPageDto>('GET', '/api/streams?q=brooks');
    expect(search.body.streams.map((s) => s.name)).toEqual(['alpha cam 42']);
    expect(search.body.total).toBeNull(); // searches answer as the admin types, uncounted
    const literal = await app.request<StreamPageDto>('GET', `/api/streams?q=${encodeURIComponent('%')}`);
    expect(literal.body.streams).toEqual([]); // % is a character to find, not a wildcard
    const ocean = await walk('category=ocean&active=true');
    expect(ocean.length).toBeGreaterThan(0);
    expect(ocean.every((s) => s.category === 'ocean' && s.active)).toBe(true);
    const first = await app.request<StreamPageDto>('GET', '/api/streams?category=ocean&active=true&limit=5');
    expect(first.body).toMatchObject({ total: ocean.length, total_capped: false });
    const second = await app.request<StreamPageDto>('GET', `/api/streams?category=ocean&active=true&limit=5&cursor=${first.body.next_cursor}`);
    expect(second.body.total).toBeNull(); // counted on the first page only
  });

  it('shows anonymous callers active streams only', async () => {
    const res = await app.anonymous<StreamPageDto>('GET', '/api/streams?limit=200');
    expect(res.body.streams.every((s) => s.active)).toBe(true);
    expect((await app.anonymous<StreamPageDto>('GET', '/api/streams?limit=5&active=false')).body).toMatchObject({ streams: [], total: 0 });
  });

  it('answers bad paging input with a 400 and a sentence', async () => {
    const cases: [string, string][] = [
      ['limit=0', 'limit must be between 1 and 200'],
      ['limit=abc', 'limit'],
      ['sort=random', 'sort must be one of newest, name, quality, category'],
      ['grade=Z', 'grade must be one of A, B, C, failed, unreachable, not-analyzed'],
      ['category=moon', 'category must be one of'],
      ['cursor=bm90LWpzb24', 'cursor: not valid for this sort'],
      ['cursor=a%27%3B--', 'cursor is not valid'],
    ];
    for (const [query, message] of cases) {
      const res = await app.request<{ error: string }>('GET', `/api/streams?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body.error).toContain(message);
    }
    const page = await app.request<StreamPageDto>('GET', '/api/streams?limit=3&sort=name');
    const wrongSort = await app.request<{ error: string }>('GET', `/api/streams?limit=3&sort=newest&cursor=${page.body.next_cursor}`);
    expect(wrongSort.status).toBe(400);
  });
});
