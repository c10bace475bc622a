/**
 * Preloaded into benchmark servers. Over IPC: 'memory' answers heap and RSS after a full GC;
 * 'loop' answers how late the event loop ran since the last 'loop' (p99 and longest, ms) — a
 * stall there delays every push and answer the server has to make.
 * 'profile' begins a CPU profile and 'profile-end' ends it, written as <name>-<pid>-<n>.cpuprofile
 * in NW_BENCH_CPU_PROFILE's folder; the same for a sampling allocation profile (.heapprofile,
 * NW_BENCH_HEAP_PROFILE); nothing without them. Starting a profiler holds the event loop a moment:
 * benches begin one before their unmeasured warm-up.
 */
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { watchStalls } from './stalls.ts';

const delay = monitorEventLoopDelay({ resolution: 10 });
delay.enable();

// A node's name and its process: a bench restarts app1–3 for each adapter, and each writes its own files.
const name = `${(process.env.NODE_NAME ?? 'server').replace(/\W+/g, '-')}-${process.pid}`;

/** One kind of inspector profile, begun and ended by the bench. */
function profiles(dir: string | undefined, start: [string, object?], stop: string, extension: string): { begin(): void; end(): void } {
  let session: Session | undefined;
  let written = 0;
  const post = (s: Session, method: string, params?: object) =>
    new Promise<unknown>((resolve, reject) => s.post(method, params ?? {}, (err, result) => (err ? reject(err) : resolve(result))));
  return {
    begin() {
      if (!dir || session) return;
      const next = (session = new Session());
      next.connect();
      void post(next, start[0].split('.')[0] + '.enable').then(() => post(next, start[0], start[1]));
    },
    end() {
      const ending = session;
      if (!dir || !ending) return;
      session = undefined;
      void post(ending, stop).then((result) => {
        writeFileSync(path.join(dir, `${name}-${++written}.${extension}`), JSON.stringify((result as { profile: unknown }).profile));
        ending.disconnect();
      });
    },
  };
}

const cpuProfile = profiles(process.env.NW_BENCH_CPU_PROFILE, ['Profiler.start'], 'Profiler.stop', 'cpuprofile');
const heapProfile = profiles(
  process.env.NW_BENCH_HEAP_PROFILE,
  ['HeapProfiler.startSampling', { samplingInterval: 16384, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true }],
  'HeapProfiler.stopSampling',
  'heapprofile',
);

process.on('message', (message) => {
  if (message === 'memory') {
    const gc = (globalThis as { gc?: () => void }).gc;
    for (let i = 0; i < 3; i++) gc?.();
    const { heapUsed, rss } = process.memoryUsage();
    process.send?.({ heapUsed, rss });
  } else if (message === 'loop') {
    const ms = (ns: number) => Math.round(ns / 1e5) / 10;
    process.send?.({ loop_p99_ms: ms(delay.percentile(99)), loop_max_ms: ms(delay.max) });
    delay.reset();
  } else if (message === 'profile' || message === 'profile-end') {
    for (const kind of [cpuProfile, heapProfile]) kind[message === 'profile' ? 'begin' : 'end']();
    process.send?.(message);
  }
});

watchStalls(process.env.NODE_NAME ?? `server ${process.pid}`);
