/**
 * Local media for the players, so nothing needs the internet: ffmpeg renders a few calm
 * generated clips (MP4) and a 30-second HLS loop, and a small HTTP server on 127.0.0.1 serves
 * them with CORS (hls.js fetches with XHR) and byte ranges. The HLS playlist is served live:
 * a sliding window over the loop that advances every second, as a camera's would.
 * Shared by the Playwright setup and bench/wall.ts.
 */
import { execFile } from 'node:child_process';
import { createReadStream, existsSync } from 'node:fs';
import { mkdir, readdir, stat } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

const SIZE = '640x360';
const FPS = 25;
export const HLS_SEGMENTS = 30;
const HLS_WINDOW = 6;

/** Generated clips: soft moving gradients in forest, ocean, lava, dusk and meadow colours. */
export const CLIPS = {
  forest: `gradients=s=${SIZE}:c0=0x0b3022:c1=0x2e8b57:c2=0xa8d5a2:c3=0x16402c:nb_colors=4:speed=0.015:rate=${FPS}`,
  ocean: `gradients=s=${SIZE}:c0=0x04263f:c1=0x1d6fa3:c2=0x6cc4d9:c3=0x0b3a5c:nb_colors=4:speed=0.02:rate=${FPS}`,
  lava: `gradients=s=${SIZE}:c0=0x2a0604:c1=0xb3300f:c2=0xf2a03d:c3=0x5c1208:nb_colors=4:speed=0.025:rate=${FPS}`,
  dusk: `gradients=s=${SIZE}:c0=0x1b1440:c1=0x8a3f6b:c2=0xf0a36b:c3=0x2d2a5c:nb_colors=4:speed=0.012:rate=${FPS}`,
  meadow: `gradients=s=${SIZE}:c0=0x23401a:c1=0x7fae3e:c2=0xe8d98a:c3=0x3d6b2a:nb_colors=4:speed=0.018:rate=${FPS}`,
} as const;
export type ClipName = keyof typeof CLIPS;

const X264 = ['-c:v', 'libx264', '-preset', 'veryfast', '-pix_fmt', 'yuv420p', '-profile:v', 'main', '-g', String(FPS), '-keyint_min', String(FPS), '-sc_threshold', '0'];

async function ffmpeg(args: string[]): Promise<void> {
  await run('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', ...args], { maxBuffer: 16 * 1024 * 1024 });
}

/** Renders every clip and the HLS loop into `dir` (skipped when already there). */
export async function generateMedia(dir: string): Promise<void> {
  await mkdir(path.join(dir, 'hls'), { recursive: true });
  const jobs: Promise<void>[] = [];
  for (const [name, source] of Object.entries(CLIPS)) {
    const file = path.join(dir, `${name}.mp4`);
    if (!existsSync(file)) {
      jobs.push(ffmpeg(['-f', 'lavfi', '-i', source, '-t', '8', ...X264, '-movflags', '+faststart', file]));
    }
  }
  if (!existsSync(path.join(dir, 'hls', 'vod.m3u8'))) {
    jobs.push(
      ffmpeg([
        '-f', 'lavfi', '-i', `${CLIPS.forest},drawbox=x=(t*40)-80:y=ih-24:w=80:h=8:color=0x9bd88a@0.9:t=fill`,
        '-t', String(HLS_SEGMENTS), ...X264,
        '-f', 'hls', '-hls_time', '1', '-hls_list_size', '0', '-hls_playlist_type', 'vod',
        '-hls_segment_filename', path.join(dir, 'hls', 'seg%03d.ts'), path.join(dir, 'hls', 'vod.m3u8'),
      ]),
    );
  }
  await mkdir(path.join(dir, 'sync'), { recursive: true });
  if (!existsSync(path.join(dir, 'sync', 'vod.m3u8'))) {
    // Frame numbers as a barcode across the top 48 rows (bit b: the 40-px band b is white), so a
    // screen's canvas can read which frame it shows; 30 fps, one-second segments.
    jobs.push(
      ffmpeg([
        '-f', 'lavfi', '-i', `color=c=0x2e5a44:s=${SIZE}:r=${SYNC_FPS},geq=lum='if(lt(Y,48),255*mod(floor(N/pow(2,floor(X/40))),2),90)':cb=128:cr=128`,
        '-t', String(HLS_SEGMENTS), ...X264.map((a) => (a === String(FPS) ? String(SYNC_FPS) : a)),
        '-f', 'hls', '-hls_time', '1', '-hls_list_size', '0', '-hls_playlist_type', 'vod',
        '-hls_segment_filename', path.join(dir, 'sync', 'seg%03d.ts'), path.join(dir, 'sync', 'vod.m3u8'),
      ]),
    );
  }
  await Promise.all(jobs);
  const segments = (await readdir(path.join(dir, 'hls'))).filter((f) => f.endsWith('.ts'));
  if (segments.length < HLS_SEGMENTS) throw new Error(`expected ${HLS_SEGMENTS} HLS segments, found ${segments.length}`);
}

/**
 * `/live/short.m3u8` replays 4 s of the clip (from its 10th second, where the bar moves across the
 * middle of the picture): a recording posing as live, which the analysis catches by its second look.
 */
const SHORT_LOOP = { first: 10, segments: 4 };

/** The live playlist at `seconds` since the server started: a window sliding over the loop (`loop.segments` from segment `loop.first`). */
export function livePlaylist(seconds: number, loop = { first: 0, segments: HLS_SEGMENTS }): string {
  const first = Math.max(0, Math.floor(seconds));
  const lines = ['#EXTM3U', '#EXT-X-VERSION:3', '#EXT-X-TARGETDURATION:1', `#EXT-X-MEDIA-SEQUENCE:${first}`];
  lines.push(`#EXT-X-DISCONTINUITY-SEQUENCE:${first === 0 ? 0 : Math.floor((first - 1) / loop.segments)}`);
  for (let i = first; i < first + HLS_WINDOW; i++) {
    if (i > 0 && i % loop.segments === 0) lines.push('#EXT-X-DISCONTINUITY');
    lines.push('#EXTINF:1.000000,', `/hls/seg${String(loop.first + (i % loop.segments)).padStart(3, '0')}.ts`);
  }
  return `${lines.join('\n')}\n`;
}

/** Frames per second of the barcoded stream (frame n of the loop shows n as bits). */
export const SYNC_FPS = 30;

/**
 * The barcoded live stream, with EXT-X-PROGRAM-DATE-TIME from a camera whose clock is right: the
 * window's newest segment ends at most a second ago (segment i began at `startedAt` + (i − window)
 * s), so every screen that shows program time T shows the same frame.
 */
export function syncPlaylist(seconds: number, startedAt: number): string {
  const first = Math.max(0, Math.floor(seconds));
  const lines = ['#EXTM3U', '#EXT-X-VERSION:3', '#EXT-X-TARGETDURATION:1', `#EXT-X-MEDIA-SEQUENCE:${first}`];
  lines.push(`#EXT-X-DISCONTINUITY-SEQUENCE:${first === 0 ? 0 : Math.floor((first - 1) / HLS_SEGMENTS)}`);
  for (let i = first; i < first + HLS_WINDOW; i++) {
    if (i > 0 && i % HLS_SEGMENTS === 0) lines.push('#EXT-X-DISCONTINUITY');
    lines.push(`#EXT-X-PROGRAM-DATE-TIME:${new Date(startedAt + (i - HLS_WINDOW) * 1000).toISOString()}`);
    lines.push('#EXTINF:1.000000,', `/sync/seg${String(i % HLS_SEGMENTS).padStart(3, '0')}.ts`);
  }
  return `${lines.join('\n')}\n`;
}

const TYPES: Record<string, string> = {
  '.mp4': 'video/mp4',
  '.ts': 'video/mp2t',
  '.m3u8': 'application/vnd.apple.mpegurl',
};

export interface MediaServer {
  base: string;
  /** A live HLS stream (sliding window). */
  /** The live HLS camera: a 30 s clip replayed as live (the world marks it "recording is fine"). */
  hlsUrl: string;
  /** A live HLS stream with program date-time whose frames carry their number (syncPlaylist). */
  syncUrl: string;
  clipUrl(name: ClipName, tag?: string): string;
  /** An address that answers 404: a dead camera. */
  deadUrl: string;
  /** A page with an HLS player in an inline script (extraction). */
  pageUrl: string;
  /** Requests seen, by path (tests read how players behave). */
  hits: Map<string, number>;
  close(): Promise<void>;
}

export async function serveMedia(dir: string, port = 0): Promise<MediaServer> {
  const started = Date.now();
  const hits = new Map<string, number>();
  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    hits.set(url.pathname, (hits.get(url.pathname) ?? 0) + 1);
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.setHeader('Access-Control-Allow-Headers', 'Range');
    res.setHeader('Access-Control-Expose-Headers', 'Content-Length, Content-Range');
    if (req.method === 'OPTIONS') return res.writeHead(204).end();
    if (url.pathname === '/data/2.5/weather') {
      // The weather service, in OpenWeatherMap's shape (the server calls it with its key).
      if (url.searchParams.get('appid') !== 'e2e-weather-key') return res.writeHead(401).end();
      res.writeHead(200, { 'Content-Type': 'application/json' });
      return res.end(
        JSON.stringify({
          coord: { lat: Number(url.searchParams.get('lat')), lon: Number(url.searchParams.get('lon')) },
          weather: [{ main: 'Clouds', description: 'broken clouds' }],
          main: { temp: 12.6, humidity: 81 },
          wind: { speed: 3.1 },
          timezone: 3600,
          name: 'Fixture',
        }),
      );
    }
    if (url.pathname === '/pages/river-cams.html') {
      // A web page that carries a player: what a visitor pastes on /submit for extraction.
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
      return res.end(
        `<!doctype html><html><head><title>River cams</title></head><body><h1>River cams</h1>` +
          `<script>window.player = { src: "http://127.0.0.1:${(server.address() as AddressInfo).port}/rivers/salmon-run.m3u8" };</script></body></html>`,
      );
    }
    if (url.pathname === '/lists/nature-cams.m3u') {
      // An iptv-org style playlist of two direct streams (local clips): what discovery reads.
      // It answers after 1.5 s, as a big list on a slow host would: long enough to see a run run.
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const body =
        `#EXTM3U\n#EXTINF:-1 tvg-logo="" group-title="Animals",Meadow Deer Cam\n${base}/meadow.mp4?cam=discovered-deer\n` +
        `#EXTINF:-1 tvg-logo="" group-title="Outdoor",Dusk Lake Cam\n${base}/dusk.mp4?cam=discovered-lake\n`;
      setTimeout(() => res.writeHead(200, { 'Content-Type': 'audio/x-mpegurl' }).end(body), 1_500);
      return;
    }
    if (url.pathname === '/lists/world-tv.m3u') {
      // A general TV list, as iptv-org's country lists are: two nature cams (one of them needs a
      // user-agent a browser cannot send), sixty TV channels, three rtmp/rtsp entries, two repeats.
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const lines = ['#EXTM3U'];
      lines.push('#EXTINF:-1 group-title="Outdoor",Harbour Seal Cam', `${base}/dusk.mp4?cam=world-seals`);
      lines.push('#EXTINF:-1 group-title="Outdoor",Puffin Burrow Cam', '#EXTVLCOPT:http-user-agent=PuffinPlayer/2.0', `${base}/meadow.mp4?cam=world-puffins`);
      const channels = ['CNN International', 'Freeform', 'Zoom', 'Cooking Panda', 'Shop TV', 'Gospel Hour'];
      for (let i = 0; i < 60; i++) lines.push(`#EXTINF:-1 group-title="General",${channels[i % channels.length]} ${i + 1}`, `https://tv.example.org/${i}/index.m3u8`);
      for (let i = 0; i < 3; i++) lines.push(`#EXTINF:-1,Eagle Cam ${i}`, `rtmp://live.example.org/eagle${i}`);
      lines.push('#EXTINF:-1 group-title="Outdoor",Harbour Seal Cam (backup)', `${base}/dusk.mp4?cam=world-seals`);
      lines.push('#EXTINF:-1 group-title="Outdoor",Puffin Burrow Cam (backup)', `${base}/meadow.mp4?cam=world-puffins`);
      res.writeHead(200, { 'Content-Type': 'audio/x-mpegurl' });
      return res.end(`${lines.join('\n')}\n`);
    }
    if (url.pathname === '/sync/live.m3u8') {
      res.writeHead(200, { 'Content-Type': TYPES['.m3u8']!, 'Cache-Control': 'no-cache' });
      return res.end(syncPlaylist((Date.now() - started) / 1000, started));
    }
    if (url.pathname === '/live/index.m3u8' || url.pathname === '/live/short.m3u8') {
      res.writeHead(200, { 'Content-Type': TYPES['.m3u8']!, 'Cache-Control': 'no-cache' });
      return res.end(livePlaylist((Date.now() - started) / 1000, url.pathname === '/live/short.m3u8' ? SHORT_LOOP : undefined));
    }
    const file = path.join(dir, path.normalize(url.pathname).replace(/^(\.\.[/\\])+/, ''));
    if (!file.startsWith(dir) || !existsSync(file)) return res.writeHead(404, { 'Content-Type': 'text/plain' }).end('Not found');
    const { size } = await stat(file);
    const type = TYPES[path.extname(file)] ?? 'application/octet-stream';
    const range = /^bytes=(\d*)-(\d*)$/.exec(req.headers.range ?? '');
    if (range) {
      const start = range[1] ? Number(range[1]) : 0;
      const end = range[2] ? Math.min(Number(range[2]), size - 1) : size - 1;
      res.writeHead(206, { 'Content-Type': type, 'Content-Length': end - start + 1, 'Content-Range': `bytes ${start}-${end}/${size}`, 'Accept-Ranges': 'bytes' });
      return createReadStream(file, { start, end }).pipe(res);
    }
    res.writeHead(200, { 'Content-Type': type, 'Content-Length': size, 'Accept-Ranges': 'bytes' });
    createReadStream(file).pipe(res);
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base,
    hlsUrl: `${base}/live/index.m3u8`,
    syncUrl: `${base}/sync/live.m3u8`,
    clipUrl: (name, tag) => `${base}/${name}.mp4${tag ? `?cam=${encodeURIComponent(tag)}` : ''}`,
    deadUrl: `${base}/offline/camera.m3u8`,
    pageUrl: `${base}/pages/river-cams.html`,
    hits,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
