/**
 * Fixture servers for discovery's third-party services, on 127.0.0.1, answering in the real
 * APIs' documented shapes: YouTube Data API v3 search.list, Twitch's client-credentials token
 * and Helix streams, Vimeo's /me/live_events and oEmbed, an iptv-org style M3U playlist and a
 * small web site of camera pages — and the thumbnails their answers name (real JPEGs rendered by
 * ffmpeg at the size their address says, served under the platforms' own path shapes). Scenarios are picked by the request (a query, a game id, a
 * path), so the adapters run unchanged against them through the safe fetcher.
 */
import { execFile } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { PlatformSettings } from '../../src/modules/platforms/settings.ts';

export interface PlatformFixtures {
  base: string;
  settings: PlatformSettings;
  /** Requests seen, by path (with the query for the APIs). */
  requests: string[];
  /** An M3U playlist of `count` entries served at /lists/<name>.m3u. */
  setPlaylist(name: string, count: number, options?: { group?: string; prefix?: string }): string;
  /** /slow/<name>.m3u holds its answer until released (a run that is still working). */
  holdSlow(): { release(): void };
  close(): Promise<void>;
}

const videoId = (i: number) => `live${String(i).padStart(7, '0')}`; // 11 characters

/** A video whose thumbnails sit on a private address (the cloud metadata one): the safe fetcher must refuse them. */
export const PRIVATE_THUMBNAIL_VIDEO = 'priv0000001';
/** A video whose "thumbnail" is a web page, not a picture. */
export const PAGE_THUMBNAIL_VIDEO = 'page0000001';

/** YouTube's thumbnail names and their sizes (the Data API's `snippet.thumbnails` and oEmbed's `thumbnail_url`). */
const YOUTUBE_THUMBNAILS = { default: [120, 90], mqdefault: [320, 180], hqdefault: [480, 360] } as const;

/** A test picture of that size, as a JPEG (ffmpeg's testsrc2), rendered once per size. */
const pictures = new Map<string, Promise<Buffer>>();
function jpeg(width: number, height: number): Promise<Buffer> {
  const key = `${width}x${height}`;
  let picture = pictures.get(key);
  if (!picture) {
    picture = new Promise((resolve, reject) => {
      execFile('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-f', 'lavfi', '-i', `testsrc2=s=${key}`, '-frames:v', '1', '-q:v', '5', '-f', 'image2pipe', '-c:v', 'mjpeg', 'pipe:1'], { encoding: 'buffer', maxBuffer: 4 * 1024 * 1024 }, (error, stdout) =>
        error ? reject(error) : resolve(stdout),
      );
    });
    pictures.set(key, picture);
  }
  return picture;
}

function m3u(count: number, group: string, prefix: string): string {
  const lines = ['#EXTM3U x-tvg-url="https://iptv-org.github.io/epg.xml"'];
  for (let i = 1; i <= count; i++) {
    lines.push(`#EXTINF:-1 tvg-id="Cam${i}.us" tvg-logo="https://i.imgur.com/cam${i}.png" group-title="${group}",${prefix} ${i} (1080p)`);
    lines.push(`https://streams.example.org/${prefix.toLowerCase().replace(/\W+/g, '-')}/${i}/index.m3u8`);
  }
  return `${lines.join('\n')}\n`;
}

export async function startPlatformFixtures(): Promise<PlatformFixtures> {
  const requests: string[] = [];
  const playlists = new Map<string, string>();
  const held: (() => void)[] = [];
  let twitchRateLimited = false;
  let base = '';
  /** Where YouTube's API and oEmbed say a video's thumbnail is (here; a private address for the SSRF case). */
  const youtubeThumbnail = (id: string, name: keyof typeof YOUTUBE_THUMBNAILS) => {
    if (id === PRIVATE_THUMBNAIL_VIDEO) return `http://169.254.169.254/vi/${id}/${name}.jpg`;
    if (id === PAGE_THUMBNAIL_VIDEO) return `${base}/vi/${id}/page.html`;
    return `${base}/vi/${id}/${name}.jpg`;
  };
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://fixture');
    requests.push(`${req.method} ${url.pathname}${url.search}`);
    const json = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
      res.end(JSON.stringify(body));
    };
    const html = (body: string) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(body);
    };

    // YouTube Data API v3: search.list
    if (url.pathname === '/youtube/v3/search') {
      if (url.searchParams.get('key') !== 'yt-key') return json(400, { error: { code: 400, message: 'API key not valid. Please pass a valid API key.', errors: [{ reason: 'badRequest' }] } });
      const q = url.searchParams.get('q') ?? url.searchParams.get('channelId') ?? '';
      if (url.searchParams.get('eventType') !== 'live' || url.searchParams.get('type') !== 'video') return json(400, { error: { code: 400, message: 'expected live videos' } });
      if (q === 'quota') {
        return json(403, { error: { code: 403, message: 'The request cannot be completed because you have exceeded your quota.', errors: [{ message: 'quota', domain: 'youtube.quota', reason: 'quotaExceeded' }] } });
      }
      if (q === 'broken') return json(500, { error: { code: 500, message: 'Backend Error', errors: [{ reason: 'backendError' }] } });
      if (q === 'silent') return; // never answers: a timeout
      const page = url.searchParams.get('pageToken') === 'PAGE2' ? 2 : 1;
      const ids = page === 1 ? [1, 2] : [3];
      return json(200, {
        kind: 'youtube#searchListResponse',
        ...(page === 1 ? { nextPageToken: 'PAGE2' } : {}),
        pageInfo: { totalResults: 3, resultsPerPage: 2 },
        items: ids.map((i) => ({
          kind: 'youtube#searchResult',
          id: { kind: 'youtube#video', videoId: videoId(i) },
          snippet: {
            title: `${q === 'ocean' ? 'Coral Reef' : 'Bear River'} Live Cam ${i}`,
            description: 'Live 24/7',
            channelId: 'UCabcdefghijklmnopqrstuv',
            channelTitle: 'explore.org',
            thumbnails: { default: { url: `https://i.ytimg.com/vi/${videoId(i)}/default.jpg`, width: 120, height: 90 }, high: { url: `https://i.ytimg.com/vi/${videoId(i)}/hqdefault.jpg`, width: 480, height: 360 } },
            liveBroadcastContent: 'live',
          },
        })),
      });
    }

    // YouTube Data API v3: videos.list, and YouTube's public oEmbed
    if (url.pathname === '/youtube/v3/videos') {
      const id = url.searchParams.get('id') ?? '';
      if (url.searchParams.get('key') !== 'yt-key') return json(400, { error: { code: 400, message: 'API key not valid.' } });
      if (id === 'gone0000000') return json(200, { kind: 'youtube#videoListResponse', items: [], pageInfo: { totalResults: 0 } });
      const thumbnails = Object.fromEntries(
        (Object.entries(YOUTUBE_THUMBNAILS) as [keyof typeof YOUTUBE_THUMBNAILS, readonly [number, number]][]).map(([name, [width, height]]) => [
          { default: 'default', mqdefault: 'medium', hqdefault: 'high' }[name],
          { url: youtubeThumbnail(id, name), width, height },
        ]),
      );
      return json(200, {
        kind: 'youtube#videoListResponse',
        items: [{ id, snippet: { title: `Live cam ${id}`, liveBroadcastContent: id.startsWith('live') ? 'live' : 'none', thumbnails }, contentDetails: { definition: id.endsWith('sd') ? 'sd' : 'hd' }, liveStreamingDetails: {} }],
      });
    }
    if (url.pathname === '/youtube/oembed') {
      const link = url.searchParams.get('url') ?? '';
      if (link.includes('gone')) return json(404, { error: 'Not Found' });
      const id = /[?&]v=([\w-]{11})/.exec(link)?.[1] ?? 'unknown0000';
      return json(200, {
        title: 'A public live cam',
        author_name: 'explore.org',
        type: 'video',
        provider_name: 'YouTube',
        thumbnail_url: youtubeThumbnail(id, 'hqdefault'),
        thumbnail_width: 480,
        thumbnail_height: 360,
      });
    }

    // The platforms' thumbnails: i.ytimg.com/vi/<id>/<name>.jpg, static-cdn.jtvnw.net/previews-ttv/live_user_<login>-<w>x<h>.jpg,
    // i.vimeocdn.com/video/<id>_<w>x<h>.jpg
    const youtubePicture = /^\/vi\/([\w-]{11})\/(default|mqdefault|hqdefault)\.jpg$/.exec(url.pathname);
    const sizedPicture = /^\/(?:previews-ttv\/live_user_\w+-|video\/\d+_)(\d{2,4})x(\d{2,4})\.jpg$/.exec(url.pathname);
    const size = youtubePicture ? YOUTUBE_THUMBNAILS[youtubePicture[2] as keyof typeof YOUTUBE_THUMBNAILS] : sizedPicture ? [Number(sizedPicture[1]), Number(sizedPicture[2])] : null;
    if (size) {
      void jpeg(size[0]!, size[1]!).then(
        (body) => res.writeHead(200, { 'content-type': 'image/jpeg', 'content-length': String(body.length) }).end(body),
        () => res.writeHead(500).end(),
      );
      return;
    }
    if (url.pathname === `/vi/${PAGE_THUMBNAIL_VIDEO}/page.html`) return html('<html><body>Not a picture</body></html>');

    // Twitch: client-credentials token and Helix streams
    if (url.pathname === '/oauth2/token' && req.method === 'POST') {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        const form = new URLSearchParams(body);
        if (form.get('client_id') !== 'tw-id' || form.get('client_secret') !== 'tw-secret' || form.get('grant_type') !== 'client_credentials') {
          return json(403, { status: 403, message: 'invalid client secret' });
        }
        json(200, { access_token: 'tw-token', expires_in: 5011271, token_type: 'bearer' });
      });
      return;
    }
    if (url.pathname === '/helix/streams') {
      if (req.headers['client-id'] !== 'tw-id' || req.headers.authorization !== 'Bearer tw-token') return json(401, { error: 'Unauthorized', status: 401, message: 'Invalid OAuth token' });
      const login = url.searchParams.get('user_login');
      if (login) {
        const live = login === 'alveussanctuary' ? [{ user_login: login, type: 'live', title: 'Alveus 24/7', thumbnail_url: `${base}/previews-ttv/live_user_${login}-{width}x{height}.jpg` }] : [];
        return json(200, { data: live, pagination: {} });
      }
      const game = url.searchParams.get('game_id');
      if (game === '429' && !twitchRateLimited) {
        twitchRateLimited = true;
        const reset = Math.ceil(Date.now() / 1000) + 2;
        return json(429, { error: 'Too Many Requests', status: 429, message: '' }, { 'ratelimit-limit': '800', 'ratelimit-remaining': '0', 'ratelimit-reset': String(reset) });
      }
      if (game === '500') return json(500, { error: 'Internal Server Error', status: 500, message: 'Helix is down' });
      const page = url.searchParams.get('after') === 'CURSOR2' ? 2 : 1;
      const logins = page === 1 ? ['alveussanctuary', 'birdcam_live'] : ['seaturtlecam'];
      return json(200, {
        data: logins.map((login, i) => ({
          id: `4${page}${i}`,
          user_id: `9${page}${i}`,
          user_login: login,
          user_name: login,
          game_id: game,
          game_name: 'Animals, Aquariums, and Zoos',
          type: 'live',
          title: `${login} 24/7 wildlife`,
          viewer_count: 100,
          started_at: '2026-11-23T00:00:00Z',
          language: 'en',
          thumbnail_url: `https://static-cdn.jtvnw.net/previews-ttv/live_user_${login}-{width}x{height}.jpg`,
          tags: login === 'birdcam_live' ? ['Birds'] : ['Wildlife'],
          is_mature: false,
        })),
        pagination: page === 1 ? { cursor: 'CURSOR2' } : {},
      });
    }

    // Vimeo: the token owner's live events, and oEmbed
    if (url.pathname === '/me/live_events') {
      if (req.headers.authorization !== 'bearer vm-token') return json(401, { error: 'You must provide a valid authenticated access token.' });
      return json(200, {
        total: 1,
        page: 1,
        per_page: 50,
        paging: { next: null, previous: null },
        data: [{ uri: '/live_events/4567', title: 'Osprey Nest Live', link: 'https://vimeo.com/event/4567', pictures: { sizes: [{ width: 640, link: 'https://i.vimeocdn.com/video/4567_640.jpg' }] } }],
      });
    }
    if (url.pathname === '/api/oembed.json') {
      const link = url.searchParams.get('url') ?? '';
      if (!link.endsWith('/76979871')) return json(404, { error: 'not found' });
      return json(200, { type: 'video', version: '1.0', provider_name: 'Vimeo', title: 'Waterfall in the Alps', author_name: 'Alpine Cams', thumbnail_url: `${base}/video/452001751_640x360.jpg`, thumbnail_width: 640, thumbnail_height: 360, video_id: 76979871 });
    }

    // Playlists
    const list = /^\/lists\/([\w-]+)\.m3u8?$/.exec(url.pathname);
    if (list && playlists.has(list[1]!)) {
      res.writeHead(200, { 'content-type': 'audio/x-mpegurl' });
      return res.end(playlists.get(list[1]!));
    }
    if (url.pathname === '/slow/cams.m3u') {
      held.push(() => {
        res.writeHead(200, { 'content-type': 'audio/x-mpegurl' });
        res.end(m3u(2, 'Animals', 'Slow Cam'));
      });
      return;
    }
    if (url.pathname === '/not-a-playlist.m3u') return html('<html><body>Not here</body></html>');

    // A small site of camera pages (EarthCam-like)
    if (url.pathname === '/cams/') {
      return html(`<html><head><title>All cams</title></head><body>
        <a href="/cams/bears">Bears</a> <a href="/cams/reef">Reef</a> <a href="/cams/missing">Gone</a>
        <a href="https://elsewhere.example/cams/x">Elsewhere</a>
        <iframe src="https://www.youtube.com/embed/${videoId(9)}" title="Front page cam"></iframe></body></html>`);
    }
    if (url.pathname === '/cams/bears') {
      return html(`<html><head><title>Bear cam</title><meta property="og:title" content="Brooks Falls Bears"></head><body>
        <video src="https://streams.example.org/bears/index.m3u8"></video></body></html>`);
    }
    if (url.pathname === '/cams/reef') {
      return html(`<html><head><title>Reef cam</title></head><body><iframe src="https://player.vimeo.com/video/76979871" title="Reef"></iframe></body></html>`);
    }
    res.writeHead(404, { 'content-type': 'text/plain' });
    res.end('not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base,
    settings: {
      youtube: { apiKey: 'yt-key', baseUrl: base, oembedUrl: `${base}/youtube/oembed` },
      twitch: { clientId: 'tw-id', clientSecret: 'tw-secret', apiBaseUrl: base, authBaseUrl: base },
      vimeo: { token: undefined, apiBaseUrl: base, oembedUrl: `${base}/api/oembed.json` },
    },
    requests,
    setPlaylist(name, count, options = {}) {
      playlists.set(name, m3u(count, options.group ?? 'Animals', options.prefix ?? name));
      return `${base}/lists/${name}.m3u`;
    },
    holdSlow() {
      return { release: () => held.splice(0).forEach((answer) => answer()) };
    },
    async close() {
      held.splice(0).forEach((answer) => answer());
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}
