/**
 * `npm run bench:quality`: the analyzer on local live-style HLS (the test corpus, rendered by
 * ffmpeg and served on 127.0.0.1): a 1080p and a 360p stream analysed 5 times each, wall seconds
 * and CPU seconds per analysis (this process plus its ffprobe/ffmpeg children, from
 * /proc/self/stat), p50. Then self-healing: a Nature Wall server process on a throw-away
 * database with a wall on a `recent` scene of four of those streams; one stream dies, the wall's
 * player reports it failing (as the web player does), and the seconds until the wall receives
 * the scene without it are timed, with the default settings (a first failure is confirmed by a
 * re-check 20 s later). Prints one JSON object on its last line.
 * Goals: 1080p ≤ 12 s wall and ≤ 4 CPU-s per analysis; death → re-resolved push ≤ 30 s.
 */
import { readFileSync } from 'node:fs';
import { createSafeFetcher } from '../src/http/safe-fetch.ts';
import { DEFAULT_PLATFORM_SETTINGS } from '../src/modules/discovery/adapters/adapter.ts';
import { analyzeStream, type AnalyzerContext } from '../src/modules/quality/analyzer/index.ts';
import { DEFAULT_MEDIA_TOOLS } from '../src/modules/quality/analyzer/media-tools.ts';
import { scoreQuality } from '../src/shared/quality/score.ts';
import type { WallState } from '../src/shared/events.ts';
import { serveCorpus } from '../tests/support/quality-corpus.ts';
import { openScreen } from '../tests/support/screens.ts';
import { benchArgs } from './args.ts';
import { benchAuth, startServerProcess } from './server-process.ts';

const { runs } = benchArgs({ runs: 5 });
const TICKS = 100; // USER_HZ on Linux

/** CPU seconds of this process and its waited-for children so far. */
function cpuSeconds(): number {
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
  // After "pid (comm) ": state is field 3, so utime/stime/cutime/cstime (14–17) are at 11–14.
  const [utime, stime, cutime, cstime] = [11, 12, 13, 14].map((i) => Number(fields[i]));
  return (utime! + stime! + cutime! + cstime!) / TICKS;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const round = (n: number) => Math.round(n * 100) / 100;

const corpus = await serveCorpus();
const fetcher = createSafeFetcher({ allowHosts: ['127.0.0.1'] });
const ctx: AnalyzerContext = { fetcher, tools: DEFAULT_MEDIA_TOOLS, platforms: DEFAULT_PLATFORM_SETTINGS, sampleSeconds: 8, sleep: (ms) => new Promise((r) => setTimeout(r, ms)) };

async function measure(clip: 'clean1080' | 'clean360') {
  const wall: number[] = [];
  const cpu: number[] = [];
  let score = 0;
  for (let i = 0; i < runs; i++) {
    const cpuBefore = cpuSeconds();
    const started = performance.now();
    const analysis = await analyzeStream({ url: corpus.live(clip), latitude: null, longitude: null }, ctx);
    wall.push((performance.now() - started) / 1000);
    cpu.push(cpuSeconds() - cpuBefore);
    score = scoreQuality(analysis.measurements).score;
  }
  return { score, wall_s_p50: round(median(wall)), cpu_s_p50: round(median(cpu)) };
}

const result: Record<string, unknown> = { runs };
try {
  result.hls_1080p = await measure('clean1080');
  result.hls_360p = await measure('clean360');

  // Self-healing, with the production defaults, on a server process of its own.
  const server = await startServerProcess({ env: { SEED_DEMO: 'false', FETCH_ALLOW_HOSTS: '127.0.0.1' } });
  const api = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${server.base}${path}`, { method, headers: { ...benchAuth, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
    return res.json() as Promise<{ id: number }>;
  };
  try {
    const ids: number[] = [];
    for (const clip of ['clean360', 'blurred720', 'fps4_720', 'frozen720'] as const) ids.push((await api('POST', '/api/streams', { name: clip, url: corpus.live(clip) })).id);
    const scene = await api('POST', '/api/scenes', { name: 'Bench healing', selection_algorithm: 'recent', max_streams: 3 });
    await api('PUT', '/api/config/default-scene', { scene_id: scene.id });
    const wall = openScreen(server.base, { kind: 'wall' });
    const shown = (s: unknown) => ((s as WallState | null)?.streams ?? []).map((x) => x.id);
    await wall.waitFor((s) => shown(s).length === 3, 15_000);
    const victim = ids[2]!; // fps4_720: shown at position 2
    corpus.setDown('fps4_720', true);
    const died = performance.now();
    wall.client.socket.emit('screen:health', { streams: [{ stream_id: victim, state: 'error' }] });
    await wall.waitFor((s) => !shown(s).includes(victim), 60_000);
    result.death_to_push_s = round((performance.now() - died) / 1000);
    wall.close();
  } finally {
    await server.stop();
  }
  const hls = result.hls_1080p as { wall_s_p50: number; cpu_s_p50: number };
  result.goal = { hls_1080p_wall_s: '<= 12 (ambition 8)', hls_1080p_cpu_s: '<= 4 (ambition 2)', death_to_push_s: '<= 30' };
  result.met = hls.wall_s_p50 <= 12 && hls.cpu_s_p50 <= 4 && (result.death_to_push_s as number) <= 30;
} finally {
  await fetcher.close();
  await corpus.close();
}
console.log(JSON.stringify(result));
