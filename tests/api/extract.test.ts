/**
 * POST /api/discovery/extract against fixture pages on 127.0.0.1 (reachable only because this
 * app allows that host, as FETCH_ALLOW_HOSTS would): players in iframes, og:video, inline
 * scripts and JSON-LD; recognised links answered without a fetch; embed codes read, not fetched.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExtractDto } from '../../src/shared/api/discovery.ts';
import type { ErrorDto } from '../../src/shared/api/index.ts';
import { startTestApp, type TestApp } from '../support/app.ts';

const PAGES: Record<string, string> = {
  '/two-iframes': `<!doctype html><html><head><title>Bear cams</title>
    <meta property="og:video" content="https://www.youtube.com/embed/ccccccccccc">
    <meta property="og:image" content="https://img.example.org/bears.jpg"></head>
    <body><iframe title="Falls" src="https://www.youtube.com/embed/aaaaaaaaaaa?autoplay=1"></iframe>
    <iframe src="//www.youtube-nocookie.com/embed/bbbbbbbbbbb"></iframe>
    <iframe src="https://www.youtube.com/embed/aaaaaaaaaaa"></iframe></body></html>`,
  '/inline-hls': `<html><head><title>Reef live</title></head><body><div id="player"></div>
    <script>var player = new Player({ source: "https:\\/\\/cdn.example.org\\/reef\\/live\\/index.m3u8?token=1", muted: true });</script></body></html>`,
  '/json-ld': `<html><head><title>Volcano</title><script type="application/ld+json">
    {"@context":"https://schema.org","@graph":[{"@type":"WebPage","name":"x"},{"@type":"VideoObject","name":"Kilauea summit live",
     "embedUrl":"https://player.vimeo.com/video/123456","thumbnailUrl":["https://img.example.org/k.jpg"],
     "publication":{"@type":"BroadcastEvent","isLiveBroadcast":true}}]}</script></head><body></body></html>`,
  '/nothing': '<html><head><title>Just a blog</title></head><body><p>No cameras here.</p><a href="/about">About</a></body></html>',
  '/video-tag': '<html><body><video poster="/poster.jpg"><source src="/media/falls.mp4" type="video/mp4"></video></body></html>',
};

let app: TestApp;
let fixtureBase: string;
let fixture: http.Server;
const hits: string[] = [];

beforeAll(async () => {
  fixture = http.createServer((req, res) => {
    hits.push(req.url ?? '');
    const page = PAGES[req.url ?? ''];
    if (!page) return res.writeHead(404).end('not found');
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);
  });
  await new Promise<void>((resolve) => fixture.listen(0, '127.0.0.1', resolve));
  fixtureBase = `http://127.0.0.1:${(fixture.address() as AddressInfo).port}`;
  app = await startTestApp({ appOptions: { fetchAllowHosts: ['127.0.0.1'] } });
});
afterAll(async () => {
  await app?.close();
  await new Promise((r) => fixture.close(r));
});

const extract = (url: string) => app.anonymous<ExtractDto & ErrorDto>('POST', '/api/discovery/extract', { url });

describe('extraction from fixture pages', () => {
  it('finds two YouTube iframes and an og:video, deduplicated, with thumbnails and embeds', async () => {
    const res = await extract(`${fixtureBase}/two-iframes`);
    expect(res.status).toBe(200);
    expect(res.body.streams.map((s) => [s.url, s.platform, s.title])).toEqual([
      ['https://www.youtube.com/watch?v=aaaaaaaaaaa', 'youtube', 'Falls'],
      ['https://www.youtube.com/watch?v=bbbbbbbbbbb', 'youtube', 'Bear cams'],
      ['https://www.youtube.com/watch?v=ccccccccccc', 'youtube', 'Bear cams'],
    ]);
    expect(res.body.streams[0]).toMatchObject({
      normalizedUrl: 'youtube:video:aaaaaaaaaaa',
      thumbnail: 'https://i.ytimg.com/vi/aaaaaaaaaaa/mqdefault.jpg',
      embedUrl: expect.stringMatching(/^https:\/\/www\.youtube\.com\/embed\/aaaaaaaaaaa\?autoplay=1&mute=1/),
    });
  });

  it('finds an HLS address inside an inline script', async () => {
    const res = await extract(`${fixtureBase}/inline-hls`);
    expect(res.body.streams).toEqual([
      expect.objectContaining({ url: 'https://cdn.example.org/reef/live/index.m3u8?token=1', platform: 'hls', title: 'Reef live', embedUrl: null }),
    ]);
  });

  it('finds a live VideoObject in JSON-LD', async () => {
    const res = await extract(`${fixtureBase}/json-ld`);
    expect(res.body.streams).toEqual([
      expect.objectContaining({ url: 'https://vimeo.com/123456', platform: 'vimeo', title: 'Kilauea summit live', thumbnail: 'https://img.example.org/k.jpg' }),
    ]);
  });

  it('resolves relative <video><source> addresses against the page', async () => {
    const res = await extract(`${fixtureBase}/video-tag`);
    expect(res.body.streams.map((s) => [s.url, s.platform])).toEqual([[`${fixtureBase}/media/falls.mp4`, 'mp4']]);
  });

  it('answers an empty list for a page with no player', async () => {
    const res = await extract(`${fixtureBase}/nothing`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ streams: [] });
  });

  it('answers a page that cannot be read with the spec text (422)', async () => {
    const res = await extract(`${fixtureBase}/missing`);
    expect(res.status).toBe(422);
    expect(res.body.error).toBe('Failed to analyze input. Please try a different URL.');
  });
});

describe('no fetch needed', () => {
  it('answers a recognised link at once', async () => {
    const before = hits.length;
    const res = await extract('https://youtu.be/dQw4w9WgXcQ');
    expect(res.body.streams).toEqual([expect.objectContaining({ url: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ', platform: 'youtube' })]);
    expect(hits.length).toBe(before);
  });

  it('reads the source of a pasted embed code without fetching or keeping it', async () => {
    const res = await extract(`<iframe width="560" src="https://player.twitch.tv/?channel=AlveusSanctuary&parent=x.org" allowfullscreen></iframe>`);
    expect(res.body.streams).toEqual([expect.objectContaining({ url: 'https://www.twitch.tv/alveussanctuary', platform: 'twitch' })]);
  });
});

describe('refusals', () => {
  it('refuses a private address with "URL is not allowed" when the host is not allow-listed', async () => {
    const strict = await startTestApp();
    try {
      const res = await strict.anonymous<ErrorDto>('POST', '/api/discovery/extract', { url: `${fixtureBase}/two-iframes` });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('URL is not allowed');
      const js = await strict.anonymous<ErrorDto>('POST', '/api/discovery/extract', { url: 'javascript:alert(1)' });
      expect(js.status).toBe(400);
    } finally {
      await strict.close();
    }
  });

  it.each([
    ['a recognised media link on loopback', 'http://127.0.0.2:4601/live.m3u8'],
    ['a recognised media link on the unspecified IPv6 address', 'http://[::]:4601/cam.mp4'],
    ['an IPv4-compatible IPv6 metadata address', 'http://[::169.254.169.254]/latest/meta-data'],
    ['a link to localhost', 'http://localhost:3000/cam.m3u8'],
  ])('refuses %s without fetching it', async (_rule, url) => {
    const strict = await startTestApp();
    try {
      const res = await strict.anonymous<ErrorDto>('POST', '/api/discovery/extract', { url });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('URL is not allowed');
    } finally {
      await strict.close();
    }
  });

  it('leaves out players of a pasted embed code that point at private addresses', async () => {
    const strict = await startTestApp();
    try {
      const res = await strict.anonymous<ExtractDto>('POST', '/api/discovery/extract', {
        url: '<iframe src="http://10.0.0.5/cam.m3u8"></iframe><iframe src="https://www.youtube.com/embed/aaaaaaaaaaa"></iframe>',
      });
      expect(res.body.streams.map((s) => s.platform)).toEqual(['youtube']);
    } finally {
      await strict.close();
    }
  });

  it('rate-limits anonymous callers per IP (429 with Retry-After)', async () => {
    const limited = await startTestApp();
    try {
      let last = 0;
      let retryAfter: string | null = null;
      for (let i = 0; i < 31; i++) {
        const res = await limited.anonymous('POST', '/api/discovery/extract', { url: 'https://youtu.be/dQw4w9WgXcQ' });
        last = res.status;
        retryAfter = res.headers.get('retry-after');
      }
      expect(last).toBe(429);
      expect(Number(retryAfter)).toBeGreaterThan(0);
    } finally {
      await limited.close();
    }
  });

  it('gives a signed-in admin a budget of their own, beyond a visitor\'s and apart from their IP', async () => {
    const limited = await startTestApp();
    try {
      for (let i = 0; i < 40; i++) {
        const res = await limited.request('POST', '/api/discovery/extract', { url: 'https://youtu.be/dQw4w9WgXcQ' });
        expect(res.status).toBe(200);
      }
      // The admin's 40 calls spent nothing of the IP's visitor budget.
      for (let i = 0; i < 30; i++) expect((await limited.anonymous('POST', '/api/discovery/extract', { url: 'https://youtu.be/dQw4w9WgXcQ' })).status).toBe(200);
      expect((await limited.anonymous('POST', '/api/discovery/extract', { url: 'https://youtu.be/dQw4w9WgXcQ' })).status).toBe(429);
    } finally {
      await limited.close();
    }
  });
});
