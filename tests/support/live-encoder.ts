/**
 * A live camera that never repeats, for tests that mean "a real live camera": ffmpeg encodes a
 * picture in real time (-re) into a sliding HLS window on disk while the test runs, served on
 * 127.0.0.1. `still`: a meadow with the sensor's noise; `moving`: the same meadow while an animal
 * wanders on a path that never comes back on itself (incommensurate sines), so no stretch of its
 * picture is ever shown twice — unlike a clip served on a loop, which is a looped recording;
 * `quiet` and `quiet-animal`: the flat meadow of a camera's quiet hour (tests/support/quality-corpus.ts),
 * alone and with the wandering animal. `cameraRate`: encoded as a camera encodes, at a constant
 * 1.2 Mb/s that keeps the sensor's noise (else x264's default rate, which may erase it).
 *
 * `startRestreamer`: a recording replayed as live the way a restreamer does it — a file played on
 * an endless loop and encoded again in real time, so its frames come back with new encoding noise.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';

const MEADOW = 'testsrc2=s=640x360:r=25,trim=end_frame=1,loop=loop=-1:size=1,noise=alls=5:allf=t+u';
const FLAT = 'color=c=0x556b2f:s=640x360:r=25,format=yuv420p,noise=alls=4:allf=t';
const WANDERING = 'color=c=0x6b4426:s=60x40:r=25[animal];[bg][animal]overlay=x=290+250*sin(0.9*t)*cos(0.37*t):y=160+120*sin(0.53*t+1):shortest=1[out0]';
const SOURCES = {
  still: `${MEADOW}[out0]`,
  moving: `${MEADOW}[bg];${WANDERING}`,
  quiet: `${FLAT}[out0]`,
  'quiet-animal': `${FLAT}[bg];${WANDERING}`,
};
const CAMERA_RATE = ['-b:v', '1200k', '-minrate', '1200k', '-maxrate', '1200k', '-bufsize', '1200k'];

export interface LiveEncoder {
  url: string;
  close(): Promise<void>;
}

/** Starts encoding; resolves once the playlist holds a few segments (a live window to sample). */
export function startLiveEncoder(kind: keyof typeof SOURCES, { cameraRate = false } = {}): Promise<LiveEncoder> {
  return encodeLive(['-f', 'lavfi', '-i', SOURCES[kind]], cameraRate ? CAMERA_RATE : []);
}

/**
 * A recording (`file`, e.g. a corpus clip's segments joined) played on a loop and encoded again
 * live, at a camera's rate. The loop is laid out first (16 plays, copied, timestamps continuous):
 * ffmpeg's -re over -stream_loop stalls at each wrap and then bursts, and a playlist that stalls
 * is rightly judged not live.
 */
export async function startRestreamer(file: string): Promise<LiveEncoder> {
  const looped = path.join(await mkdtemp(path.join(os.tmpdir(), 'nw-loop-')), 'looped.ts');
  await new Promise<void>((resolve, reject) =>
    spawn('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-stream_loop', '15', '-i', file, '-c', 'copy', '-y', looped], { stdio: 'ignore' }).on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`ffmpeg could not lay out the loop (exit ${code})`)))),
  );
  const encoder = await encodeLive(['-i', looped], CAMERA_RATE);
  return { url: encoder.url, close: async () => Promise.all([encoder.close(), rm(path.dirname(looped), { recursive: true, force: true })]).then(() => undefined) };
}

async function encodeLive(input: string[], rate: string[]): Promise<LiveEncoder> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'nw-live-'));
  const child: ChildProcess = spawn(
    'ffmpeg',
    ['-hide_banner', '-loglevel', 'error', '-re', ...input, '-an', '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', ...rate, '-g', '50', '-keyint_min', '50', '-sc_threshold', '0',
      '-f', 'hls', '-hls_time', '2', '-hls_list_size', '6', '-hls_flags', 'delete_segments+program_date_time', '-hls_segment_filename', path.join(dir, 'seg%05d.ts'), path.join(dir, 'live.m3u8')],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let errors = '';
  child.stderr?.on('data', (chunk: Buffer) => (errors += chunk.toString()));
  const server = http.createServer(async (req, res) => {
    const name = path.basename(new URL(req.url ?? '/', 'http://live').pathname);
    const file = path.join(dir, name);
    if (!/^(live\.m3u8|seg\d{5}\.ts)$/.test(name) || !existsSync(file)) return res.writeHead(404).end();
    const body = await readFile(file).catch(() => null);
    if (!body) return res.writeHead(404).end();
    res.writeHead(200, { 'content-type': name.endsWith('.m3u8') ? 'application/vnd.apple.mpegurl' : 'video/mp2t', 'cache-control': 'no-cache' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const close = async () => {
    child.kill('SIGKILL');
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
    await rm(dir, { recursive: true, force: true });
  };
  // Four segments (8 s) before the first analysis: a full sample's worth of live window.
  const deadline = Date.now() + 30_000;
  for (;;) {
    const playlist = await readFile(path.join(dir, 'live.m3u8'), 'utf8').catch(() => '');
    if ((playlist.match(/#EXTINF/g) ?? []).length >= 4) break;
    if (child.exitCode !== null || Date.now() > deadline) {
      await close();
      throw new Error(`the live encoder did not start: ${errors.trim() || `exit ${child.exitCode}`}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/live.m3u8`, close };
}
