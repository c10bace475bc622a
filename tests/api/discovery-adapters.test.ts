/**
 * Each discovery adapter against its fixture server on 127.0.0.1, through the real safe
 * fetcher: pagination, API errors, a 429 with a reset time, a quota error, a timeout, and
 * missing credentials — each ends in finds or in a readable PlatformFailure (a DiscoveryFailure is one).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSafeFetcher, type SafeFetcher } from '../../src/http/safe-fetch.ts';
import { createLogger } from '../../src/logger.ts';
import { type DiscoveredStream, type DiscoveryContext, type SourceSpec } from '../../src/modules/discovery/adapters/adapter.ts';
import type { PlatformSettings } from '../../src/modules/platforms/settings.ts';
import { PlatformFailure } from '../../src/modules/platforms/request.ts';
import { ADAPTERS } from '../../src/modules/discovery/adapters/index.ts';
import { SOURCE_CONFIGS } from '../../src/shared/api/discovery.ts';
import type { DiscoveryPlatform } from '../../src/shared/constants.ts';
import { startPlatformFixtures, type PlatformFixtures } from '../support/platforms.ts';

let fixtures: PlatformFixtures;
let fetcher: SafeFetcher;
const slept: number[] = [];

beforeAll(async () => {
  fixtures = await startPlatformFixtures();
  fetcher = createSafeFetcher({ allowHosts: ['127.0.0.1'] });
});
afterAll(async () => {
  await fetcher.close();
  await fixtures.close();
});

function ctx(platforms: Partial<PlatformSettings> = {}, extra: Partial<DiscoveryContext> = {}): DiscoveryContext {
  return {
    fetcher,
    platforms: { ...fixtures.settings, ...platforms },
    logger: createLogger('silent'),
    signal: new AbortController().signal,
    limit: undefined,
    sleep: async (ms) => void slept.push(ms),
    ...extra,
  };
}

function source<P extends DiscoveryPlatform>(platform: P, config: Record<string, unknown>, url: string | null = null): SourceSpec {
  return { id: 1, name: `${platform} source`, platform, url, config: SOURCE_CONFIGS[platform].parse(config) } as SourceSpec;
}

async function collect(spec: SourceSpec, context = ctx()): Promise<DiscoveredStream[]> {
  const out: DiscoveredStream[] = [];
  for await (const found of (ADAPTERS[spec.platform] as (s: SourceSpec, c: DiscoveryContext) => AsyncIterable<DiscoveredStream>)(spec, context)) out.push(found);
  return out;
}

async function failure(spec: SourceSpec, context = ctx()): Promise<string> {
  const error = await collect(spec, context).then(() => null, (e: unknown) => e);
  expect(error).toBeInstanceOf(PlatformFailure);
  return (error as Error).message;
}

describe('youtube', () => {
  it('pages through search.list for live videos, up to max_pages', async () => {
    const found = await collect(source('youtube', { query: 'bears', max_pages: 3 }));
    expect(found.map((f) => f.url)).toEqual([1, 2, 3].map((i) => `https://www.youtube.com/watch?v=live${String(i).padStart(7, '0')}`));
    expect(found[0]).toMatchObject({ title: 'Bear River Live Cam 1', thumbnail: expect.stringContaining('hqdefault.jpg') });
    const asked = fixtures.requests.filter((r) => r.includes('/youtube/v3/search') && r.includes('q=bears'));
    expect(asked).toHaveLength(2);
    expect(asked[1]).toContain('pageToken=PAGE2');
    expect(asked[0]).toMatch(/type=video/);
    expect(asked[0]).toMatch(/eventType=live/);
  });

  it('reads one page when max_pages is 1, and keeps the answer so a second run spends no quota', async () => {
    const before = fixtures.requests.length;
    expect(await collect(source('youtube', { query: 'ocean', max_pages: 1 }))).toHaveLength(2);
    expect(await collect(source('youtube', { query: 'ocean', max_pages: 1 }))).toHaveLength(2);
    expect(fixtures.requests.length - before).toBe(1);
  });

  it('turns a 403 quotaExceeded into a clear error', async () => {
    expect(await failure(source('youtube', { query: 'quota' }))).toMatch(/YouTube API quota exceeded for today/);
  });

  it('reports an API error with its status and message', async () => {
    expect(await failure(source('youtube', { query: 'broken' }))).toBe('YouTube API error 500: Backend Error');
  });

  it('gives up on a platform that does not answer in time', async () => {
    expect(await failure(source('youtube', { query: 'silent' }), ctx({}, { timeoutMs: 300 }))).toMatch(/YouTube did not answer in time/);
  });

  it('fails clearly without an API key', async () => {
    expect(await failure(source('youtube', { query: 'bears' }), ctx({ youtube: { ...fixtures.settings.youtube, apiKey: undefined } }))).toBe(
      'YouTube API key not configured (set YOUTUBE_API_KEY)',
    );
  });
});

describe('twitch', () => {
  it('gets an app token, then pages Helix streams by cursor', async () => {
    const found = await collect(source('twitch', { game_id: '272263' }));
    expect(found.map((f) => f.url)).toEqual(['https://www.twitch.tv/alveussanctuary', 'https://www.twitch.tv/birdcam_live', 'https://www.twitch.tv/seaturtlecam']);
    expect(found[0]!.thumbnail).toBe('https://static-cdn.jtvnw.net/previews-ttv/live_user_alveussanctuary-640x360.jpg');
    expect(fixtures.requests.some((r) => r.includes('after=CURSOR2'))).toBe(true);
  });

  it('keeps only streams with a wanted tag', async () => {
    const found = await collect(source('twitch', { game_id: '272263', tags: ['birds'] }));
    expect(found.map((f) => f.url)).toEqual(['https://www.twitch.tv/birdcam_live']);
  });

  it('waits for Ratelimit-Reset after a 429, then goes on', async () => {
    slept.length = 0;
    const found = await collect(source('twitch', { game_id: '429' }));
    expect(found).toHaveLength(3);
    expect(slept).toHaveLength(1);
    expect(slept[0]).toBeGreaterThan(0);
    expect(slept[0]).toBeLessThanOrEqual(3_000);
  });

  it('reports a Helix error, and missing credentials', async () => {
    expect(await failure(source('twitch', { game_id: '500' }))).toBe('Twitch API error 500: Helix is down');
    expect(
      await failure(source('twitch', { game_id: '1' }), ctx({ twitch: { ...fixtures.settings.twitch, clientSecret: undefined } })),
    ).toMatch(/Twitch credentials not configured/);
    expect(
      await failure(source('twitch', { game_id: '1' }), ctx({ twitch: { ...fixtures.settings.twitch, clientId: 'other-id' } })),
    ).toMatch(/Twitch refused the client credentials \(HTTP 403: invalid client secret\)/);
  });
});

describe('vimeo', () => {
  it('without a token, checks the given links through oEmbed and keeps those that exist', async () => {
    const found = await collect(source('vimeo', { links: ['https://vimeo.com/76979871', 'https://vimeo.com/11111111'] }));
    expect(found).toEqual([expect.objectContaining({ url: 'https://vimeo.com/76979871', title: 'Waterfall in the Alps' })]);
  });

  it('with VIMEO_TOKEN, lists the account\'s live events', async () => {
    const found = await collect(source('vimeo', {}), ctx({ vimeo: { ...fixtures.settings.vimeo, token: 'vm-token' } }));
    expect(found).toEqual([expect.objectContaining({ url: 'https://vimeo.com/event/4567', title: 'Osprey Nest Live' })]);
  });

  it('explains that Vimeo has no public live search when there is neither a token nor links', async () => {
    expect(await failure(source('vimeo', {}))).toMatch(/Vimeo has no public live search/);
  });
});

describe('direct (M3U playlists)', () => {
  it('reads an iptv-org playlist: names, logos, group titles, capped by max_entries and the run limit', async () => {
    const url = fixtures.setPlaylist('animals', 5, { prefix: 'Zoo Cam' });
    const found = await collect(source('direct', {}, url));
    expect(found).toHaveLength(5);
    expect(found[0]).toEqual({
      url: 'https://streams.example.org/zoo-cam/1/index.m3u8',
      title: 'Zoo Cam 1 (1080p)',
      thumbnail: 'https://i.imgur.com/cam1.png',
      hints: 'Animals',
      headers: { user_agent: null, referrer: null },
      meta: { group: 'Animals', tvgName: null, tvgId: expect.any(String) },
    });
    expect(await collect(source('direct', { max_entries: 3 }, url))).toHaveLength(3);
    expect(await collect(source('direct', {}, url), ctx({}, { limit: 2 }))).toHaveLength(2);
  });

  it('filters by group title', async () => {
    const url = fixtures.setPlaylist('news', 3, { group: 'News' });
    expect(await collect(source('direct', { groups: ['animals'] }, url))).toHaveLength(0);
    expect(await collect(source('direct', { groups: ['NEWS'] }, url))).toHaveLength(3);
  });

  it('refuses what is not a playlist, and a missing one', async () => {
    expect(await failure(source('direct', {}, `${fixtures.base}/not-a-playlist.m3u`))).toMatch(/not an M3U playlist/);
    expect(await failure(source('direct', {}, `${fixtures.base}/lists/gone.m3u`))).toBe('The playlist could not be downloaded (HTTP 404)');
  });
});

describe('earthcam / custom (pages, one level deep)', () => {
  it('finds players on the start page and on the same site\'s pages it links to, skipping pages that fail', async () => {
    const found = await collect(source('custom', { max_pages: 10 }, `${fixtures.base}/cams/`));
    expect(found.map((f) => f.url).sort()).toEqual(['https://streams.example.org/bears/index.m3u8', 'https://vimeo.com/76979871', 'https://www.youtube.com/watch?v=live0000009'].sort());
    expect(fixtures.requests.some((r) => r.includes('elsewhere'))).toBe(false);
  });

  it('reads no more than max_pages pages', async () => {
    const before = fixtures.requests.filter((r) => r.startsWith('GET /cams/')).length;
    await collect(source('earthcam', { max_pages: 2 }, `${fixtures.base}/cams/`));
    expect(fixtures.requests.filter((r) => r.startsWith('GET /cams/')).length - before).toBe(2);
  });
});
