/**
 * `npm run bench:api`: the scene endpoint walls and kiosks call on load, against /healthz (the
 * server's floor), each at 50 connections with autocannon, in one run on one server process.
 * Prints one JSON object on its last line. Goal: scene endpoint >= 40% of /healthz
 * throughput, p99 <= 25 ms.
 */
import autocannon from 'autocannon';
import { benchArgs } from './args.ts';
import { startServerProcess } from './server-process.ts';
import { NoSamplesError } from './stats.ts';

const { duration, connections } = benchArgs({ duration: 10, connections: 50 });

function run(url: string) {
  return autocannon({ url, connections, duration, pipelining: 1 });
}

const server = await startServerProcess();
try {
  const { scene_id } = (await (await fetch(`${server.base}/api/config/default-scene`)).json()) as { scene_id: number };
  const sceneUrl = `${server.base}/api/scenes/${scene_id}/streams`;
  const check = await fetch(sceneUrl);
  if (!check.ok || ((await check.json()) as unknown[]).length !== 5) throw new Error('default scene does not resolve 5 streams');

  await run(`${server.base}/healthz`); // warm-up: JIT, pool
  await run(sceneUrl);
  const health = await run(`${server.base}/healthz`);
  const scene = await run(sceneUrl);
  // autocannon's own percentiles (of its latency histogram), not bench/stats.ts's: it keeps no
  // list of samples. A run of no answered request would still give 0 ms; that is refused.
  const summary = (r: autocannon.Result) => {
    if (r.requests.total === 0) throw new NoSamplesError(`the latency of ${r.url}`);
    return {
      rps: Math.round(r.requests.average),
      p50_ms: r.latency.p50,
      p99_ms: r.latency.p99,
      errors: r.errors + r.non2xx,
    };
  };
  const result = {
    connections,
    duration_s: duration,
    healthz: summary(health),
    scene_streams: summary(scene),
    throughput_ratio: Number((scene.requests.average / health.requests.average).toFixed(3)),
    goal: { throughput_ratio: '>= 0.40', scene_p99_ms: '<= 25' },
  };
  console.log(JSON.stringify(result));
} finally {
  await server.stop();
}
