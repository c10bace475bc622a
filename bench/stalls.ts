/**
 * NW_BENCH_STALLS=1: print this process's garbage-collection pauses and event-loop stalls of 20 ms
 * and more, stamped on the machine's clock (Date.now()), so a bench's servers and its own client
 * can be lined up with the moments it measured. Off, it does nothing.
 */
import { PerformanceObserver, performance } from 'node:perf_hooks';

export const stallsWatched = process.env.NW_BENCH_STALLS === '1';

export function watchStalls(name: string): void {
  if (!stallsWatched) return;
  const at = (start: number) => Math.round(performance.timeOrigin + start);
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      if (e.duration >= 20) console.error(`[stall ${name}] gc ${Math.round(e.duration)} ms at ${at(e.startTime)} kind ${((e as { detail?: unknown }).detail as { kind?: number } | undefined)?.kind}`);
    }
  }).observe({ entryTypes: ['gc'] });
  let last = performance.now();
  setInterval(() => {
    const now = performance.now();
    if (now - last >= 30) console.error(`[stall ${name}] loop ${Math.round(now - last - 10)} ms late from ${at(last + 10)}`);
    last = now;
  }, 10).unref();
}
