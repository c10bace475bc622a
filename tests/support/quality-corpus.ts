/**
 * The quality analyzer's test corpus, rendered by ffmpeg (once per machine, cached in the temp
 * folder) and served on 127.0.0.1 as live-style HLS — a sliding window over the clip's 2-second
 * segments that advances in real time, as a camera's playlist does — plus an MP4 file, a VOD
 * playlist posing as live, a stale playlist and a 404. Shared by the tests and bench:quality.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, readdir, rename, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export const CORPUS_DIR = path.join(os.tmpdir(), 'nature-wall-quality-corpus-v4');
const SECONDS = 24;
const SEGMENT = 2;
const WINDOW = 5;

/** A still meadow: one sharp picture, with a little temporal noise as a camera's sensor has. */
const MEADOW = 'testsrc2=s=640x360:r=25,trim=end_frame=1,loop=loop=-1:size=1,noise=alls=5:allf=t+u';

/**
 * A flat meadow as a camera sees a quiet hour: one colour, nothing moving, only the sensor's
 * noise (lighter than MEADOW's) — the colour whose 64 × 36 copy the old frozen test took for a
 * stuck picture (issue 40).
 */
const FLAT = (colour = '0x556b2f', noise = 4) => `color=c=${colour}:s=640x360:r=25,format=yuv420p,noise=alls=${noise}:allf=t`;
/** The first frame of a source, repeated: a stuck encoder or a frozen source. */
const STUCK = ',trim=end_frame=1,loop=loop=-1:size=1';

/** Each clip: an ffmpeg lavfi source (sharp, moving test pictures unless the defect says otherwise). */
export const CLIPS = {
  clean1080: 'testsrc2=s=1920x1080:r=25',
  clean720: 'testsrc2=s=1280x720:r=25',
  clean360: 'testsrc2=s=640x360:r=25',
  black720: 'color=c=black:s=1280x720:r=25',
  frozen720: 'testsrc2=s=1280x720:r=25,trim=end_frame=1,loop=loop=-1:size=1',
  blurred720: 'testsrc2=s=1280x720:r=25,gblur=sigma=12',
  fps4_720: 'testsrc2=s=1280x720:r=4',
  // A nature camera's day: a still meadow with the sensor's light noise, the same meadow while a
  // 60 × 40 animal walks across it (2 % of the picture), and short moving clips to loop.
  meadow_still: `${MEADOW}[out0]`,
  meadow_animal: `${MEADOW}[bg];color=c=0x6b4426:s=60x40:r=25[animal];[bg][animal]overlay=x=40+mod(t*70\\,520):y=230:shortest=1[out0]`,
  moving8: 'testsrc2=s=640x360:r=25',
  moving30: 'testsrc2=s=640x360:r=25',
  // Cameras' quiet hours (issue 40), each at a camera's constant bitrate unless named _crf (x264's
  // default quality-based rate, which erases a still scene's noise).
  quiet_still: `${FLAT()}[out0]`,
  quiet_light: `${FLAT('0x556b2f', 3)}[out0]`,
  quiet_still_crf: `${FLAT()}[out0]`,
  night_still: `${FLAT('0x303030', 14)}[out0]`,
  dawn: `color=c=0x556b2f:s=640x360:r=25,format=yuv420p,eq=brightness='-0.15+0.01*t':eval=frame,noise=alls=4:allf=t[out0]`,
  leaves: `${FLAT()}[bg];color=c=0x3a5a20:s=24x24:r=25[leaf];[bg][leaf]overlay=x=200+3*sin(7*t):y=100+2*cos(5*t):shortest=1[out0]`,
  animal_flat: `${FLAT()}[bg];color=c=0x6b4426:s=60x40:r=25[animal];[bg][animal]overlay=x=40+mod(t*70\\,520):y=230:shortest=1[out0]`,
  stuck_cbr: `${FLAT()}${STUCK}[out0]`,
  stuck_crf: `${FLAT()}${STUCK}[out0]`,
  // Recordings replayed as live where little moves: 8 s of the quiet meadow, and of the meadow
  // while the animal walks a few steps (it never gets far: what changes is small and local).
  quiet_loop8: `${FLAT()}[out0]`,
  animal_loop8: `${FLAT()}[bg];color=c=0x6b4426:s=60x40:r=25[animal];[bg][animal]overlay=x=200+mod(t*20\\,100):y=230:shortest=1[out0]`,
} as const;
export type ClipName = keyof typeof CLIPS;

/**
 * The meadows are encoded as a camera encodes: at a fixed bitrate (1.2 Mb/s), which keeps the
 * sensor's noise. x264's default quality-based rate spends 91 kb/s on a still 360p picture and
 * erases the noise, leaving frames as identical as a stuck encoder's — no measure could tell them
 * apart, and no camera streams like that.
 */
const CAMERA_RATE: Partial<Record<ClipName, string[]>> = Object.fromEntries(
  (['meadow_still', 'meadow_animal', 'quiet_still', 'quiet_light', 'night_still', 'dawn', 'leaves', 'animal_flat', 'stuck_cbr', 'quiet_loop8', 'animal_loop8'] as const).map((clip) => [
    clip,
    ['-b:v', '1200k', '-minrate', '1200k', '-maxrate', '1200k', '-bufsize', '1200k'],
  ]),
);

/** How long each clip is (served as a live stream, it plays again from its start). */
const CLIP_SECONDS: Partial<Record<ClipName, number>> = { moving8: 8, moving30: 30, quiet_loop8: 8, animal_loop8: 8 };

async function ffmpeg(args: string[]): Promise<void> {
  await run('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', ...args], { maxBuffer: 16 * 1024 * 1024 });
}

/**
 * Renders what is missing. Test files run in parallel and may all find the corpus missing on a
 * fresh machine: each renders into a folder of its own and moves the result into place in one
 * rename, so no one ever reads a clip another is still writing (the first rename wins).
 */
export async function generateCorpus(dir = CORPUS_DIR): Promise<void> {
  await mkdir(dir, { recursive: true });
  const x264 = ['-c:v', 'libx264', '-preset', 'veryfast', '-pix_fmt', 'yuv420p'];
  const jobs: Promise<void>[] = [];
  const settle = async (from: string, to: string) => {
    await rename(from, to).catch((error: NodeJS.ErrnoException) => {
      if (!existsSync(to)) throw error; // lost the race to another renderer: theirs is as good
    });
    await rm(from, { recursive: true, force: true });
  };
  for (const [name, source] of Object.entries(CLIPS)) {
    const folder = path.join(dir, name);
    if (existsSync(path.join(folder, 'all.m3u8'))) continue;
    const fps = name.startsWith('fps4') ? 4 : 25;
    jobs.push(
      (async () => {
        const work = await mkdtemp(path.join(dir, `.${name}-`));
        await ffmpeg([
          '-f', 'lavfi', '-i', source, '-t', String(CLIP_SECONDS[name as ClipName] ?? SECONDS), ...x264, ...(CAMERA_RATE[name as ClipName] ?? []), '-g', String(fps * SEGMENT), '-keyint_min', String(fps * SEGMENT), '-sc_threshold', '0',
          '-f', 'hls', '-hls_time', String(SEGMENT), '-hls_list_size', '0', '-hls_playlist_type', 'vod',
          '-hls_segment_filename', path.join(work, 'seg%03d.ts'), path.join(work, 'all.m3u8'),
        ]);
        await settle(work, folder);
      })(),
    );
  }
  if (!existsSync(path.join(dir, 'clean720.mp4'))) {
    jobs.push(
      (async () => {
        const work = await mkdtemp(path.join(dir, '.mp4-'));
        await ffmpeg(['-f', 'lavfi', '-i', CLIPS.clean720, '-t', '10', ...x264, '-movflags', '+faststart', path.join(work, 'clean720.mp4')]);
        await settle(path.join(work, 'clean720.mp4'), path.join(dir, 'clean720.mp4'));
        await rm(work, { recursive: true, force: true });
      })(),
    );
  }
  await Promise.all(jobs);
}

export interface CorpusServer {
  base: string;
  /** The live-style playlist of a clip. */
  live(name: ClipName): string;
  /** A clip's finished recording served under a live-looking name. */
  vod(name: ClipName): string;
  /** A playlist that never advances. */
  stale(name: ClipName): string;
  /**
   * The live playlist with EXT-X-PROGRAM-DATE-TIME on every segment, from a camera whose clock is
   * right (its newest segment ends at most a segment ago) or off by `shiftMs` (positive: fast),
   * over a window of `window` segments (default 5).
   */
  withProgramTime(name: ClipName, options?: LiveOptions): string;
  /** A master playlist of the clean 360p, 720p and 1080p clips (800 kb/s, 2.5 and 6 Mb/s). */
  ladder: string;
  /** The same ladder, its variants live with program date-time (as withProgramTime). */
  timedLadder(options?: LiveOptions): string;
  mp4: string;
  /** A playlist served as an .mp4 file. */
  disguised: string;
  missing: string;
  /** Stop serving a clip (it answers 404) or serve it again. */
  setDown(name: ClipName, down: boolean): void;
  /** A live playlist whose picture is whichever clip the alias is set to (`setAlias` switches it mid-stream). */
  alias(name: string): string;
  setAlias(name: string, clip: ClipName): void;
  requests: string[];
  /** One play of a clip as a single local file (its segments joined): a recording to replay. */
  recording(name: ClipName): Promise<string>;
  close(): Promise<void>;
}

export interface LiveOptions {
  shiftMs?: number;
  window?: number;
  /** A name that makes the address another camera's (the picture is the same). */
  tag?: string;
}

const liveQuery = (options: LiveOptions = {}) => {
  const query = new URLSearchParams();
  if (options.shiftMs) query.set('shift', String(options.shiftMs));
  if (options.window) query.set('window', String(options.window));
  if (options.tag) query.set('cam', options.tag);
  return query.size ? `?${query}` : '';
};

export async function serveCorpus(dir = CORPUS_DIR): Promise<CorpusServer> {
  await generateCorpus(dir);
  const durations = new Map<string, number[]>();
  for (const name of Object.keys(CLIPS)) {
    const text = await readFile(path.join(dir, name, 'all.m3u8'), 'utf8');
    durations.set(name, [...text.matchAll(/#EXTINF:([\d.]+)/g)].map((m) => Number(m[1])));
    if ((await readdir(path.join(dir, name))).filter((f) => f.endsWith('.ts')).length === 0) throw new Error(`no segments for ${name}`);
  }
  const started = Date.now();
  const down = new Set<string>();
  const aliases = new Map<string, ClipName>();
  const requests: string[] = [];
  /**
   * `programTime`: stamps from a camera whose clock is `shift` ms off. The window ends now: its
   * newest segment's program time ends at (now rounded down to a segment) + shift.
   */
  const playlist = (name: string, sequence: number, ended: boolean, programTime: { shift: number } | null = null, window = WINDOW) => {
    const lengths = durations.get(name)!;
    const count = lengths.length;
    const lines = ['#EXTM3U', '#EXT-X-VERSION:3', `#EXT-X-TARGETDURATION:${SEGMENT}`, `#EXT-X-MEDIA-SEQUENCE:${sequence}`];
    for (let i = sequence; i < sequence + (ended ? count : window); i++) {
      if (i > sequence && i % count === 0) lines.push('#EXT-X-DISCONTINUITY');
      if (programTime) lines.push(`#EXT-X-PROGRAM-DATE-TIME:${new Date(started + (i - window) * SEGMENT * 1000 + programTime.shift).toISOString()}`);
      lines.push(`#EXTINF:${lengths[i % count]!.toFixed(3)},`, `/${name}/seg${String(i % count).padStart(3, '0')}.ts`);
    }
    if (ended) lines.push('#EXT-X-ENDLIST');
    return `${lines.join('\n')}\n`;
  };
  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://corpus');
    requests.push(url.pathname + url.search);
    res.setHeader('access-control-allow-origin', '*'); // browsers play it too (bench:wall's video walls, the players' tests)
    const m3u8 = (body: string) => res.writeHead(200, { 'content-type': 'application/vnd.apple.mpegurl', 'cache-control': 'no-cache' }).end(body);
    if (url.pathname === '/master/ladder.m3u8' || url.pathname === '/master/timed.m3u8') {
      // The timed ladder's variants carry its query (the camera's clock and window) along.
      const [kind, query] = url.pathname === '/master/timed.m3u8' ? ['pdt', url.search] : ['live', ''];
      return m3u8(
        ['#EXTM3U', '#EXT-X-STREAM-INF:BANDWIDTH=2500000,RESOLUTION=1280x720', `/${kind}/clean720.m3u8${query}`, '#EXT-X-STREAM-INF:BANDWIDTH=800000,RESOLUTION=640x360', `/${kind}/clean360.m3u8${query}`, '#EXT-X-STREAM-INF:BANDWIDTH=6000000,RESOLUTION=1920x1080', `/${kind}/clean1080.m3u8${query}`, ''].join('\n'),
      );
    }
    const aliased = /^\/alias\/(\w+)\.m3u8$/.exec(url.pathname);
    if (aliased && aliases.has(aliased[1]!)) {
      const clip = aliases.get(aliased[1]!)!;
      return m3u8(playlist(clip, Math.floor((Date.now() - started) / 1000 / SEGMENT), false));
    }
    const match = /^\/(live|vod|stale|pdt)\/(\w+)\.m3u8$/.exec(url.pathname);
    if (match && durations.has(match[2]!)) {
      if (down.has(match[2]!)) return res.writeHead(404).end('gone');
      if (match[1] === 'vod') return m3u8(playlist(match[2]!, 0, true));
      if (match[1] === 'stale') return m3u8(playlist(match[2]!, 3, false));
      const window = Math.min(Math.max(Number(url.searchParams.get('window')) || WINDOW, 2), 10);
      const timed = match[1] === 'pdt' ? { shift: Number(url.searchParams.get('shift')) || 0 } : null;
      return m3u8(playlist(match[2]!, Math.floor((Date.now() - started) / 1000 / SEGMENT), false, timed, window));
    }
    const segment = /^\/(\w+)\/(seg\d{3}\.ts)$/.exec(url.pathname);
    if (segment && durations.has(segment[1]!) && !down.has(segment[1]!)) {
      return res.writeHead(200, { 'content-type': 'video/mp2t' }).end(await readFile(path.join(dir, segment[1]!, segment[2]!)));
    }
    if (url.pathname === '/files/disguised.mp4') {
      // A playlist posing as a video file, pointing back here: ffmpeg must never follow it.
      const port = (server.address() as AddressInfo).port;
      return res.writeHead(200, { 'content-type': 'video/mp4' }).end(`#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2,\nhttp://127.0.0.1:${port}/clean360/seg000.ts?via=ffmpeg\n#EXT-X-ENDLIST\n`);
    }
    if (url.pathname === '/files/clean720.mp4') {
      const body = await readFile(path.join(dir, 'clean720.mp4'));
      return res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': String(body.length) }).end(body);
    }
    res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base,
    live: (name) => `${base}/live/${name}.m3u8`,
    vod: (name) => `${base}/vod/${name}.m3u8`,
    stale: (name) => `${base}/stale/${name}.m3u8`,
    withProgramTime: (name, options) => `${base}/pdt/${name}.m3u8${liveQuery(options)}`,
    ladder: `${base}/master/ladder.m3u8`,
    timedLadder: (options) => `${base}/master/timed.m3u8${liveQuery(options)}`,
    mp4: `${base}/files/clean720.mp4`,
    disguised: `${base}/files/disguised.mp4`,
    missing: `${base}/live/missing.m3u8`,
    setDown: (name, isDown) => void (isDown ? down.add(name) : down.delete(name)),
    alias: (name) => `${base}/alias/${name}.m3u8`,
    setAlias: (name, clip) => void aliases.set(name, clip),
    requests,
    async recording(name) {
      const folder = path.join(dir, name);
      const segments = (await readdir(folder)).filter((f) => f.endsWith('.ts')).sort();
      const file = path.join(await mkdtemp(path.join(os.tmpdir(), 'nw-recording-')), `${name}.ts`);
      await writeFile(file, Buffer.concat(await Promise.all(segments.map((f) => readFile(path.join(folder, f))))));
      return file;
    },
    async close() {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}
