/**
 * A live camera that never repeats, for tests that mean "a real live camera": ffmpeg encodes a
 * picture in real time (-re) into a sliding HLS window on disk while the test runs, served on
 * 127.0.0.1. `still`: a meadow with the sensor's noise; `moving`: the same meadow while an animal
 * wanders on a path that never comes back on itself (incommensurate sines), so no stretch of its
 * picture is ever shown twice — unlike a clip served on a loop, which is a looped recording.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';

const MEADOW = 'testsrc2=s=640x360:r=25,trim=end_frame=1,loop=loop=-1:size=1,noise=alls=5:allf=t+u';
const SOURCES = {
  still: `${MEADOW}[out0]`,
  moving: `${MEADOW}[bg];color=c=0x6b4426:s=60x40:r=25[animal];[bg][animal]overlay=x=290+250*sin(0.9*t)*cos(0.37*t):y=160+120*sin(0.53*t+1):shortest=1[out0]`,
};

export interface LiveEncoder {
  url: string;
  close(): Promise<void>;
}

/** Starts encoding; resolves once the playlist holds a few segments (a live window to sample). */
export async function startLiveEncoder(kind: keyof typeof SOURCES): Promise<LiveEncoder> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'nw-live-'));
  const child: ChildProcess = spawn(
    'ffmpeg',
    ['-hide_banner', '-loglevel', 'error', '-re', '-f', 'lavfi', '-i', SOURCES[kind], '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-g', '50', '-keyint_min', '50', '-sc_threshold', '0',
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
