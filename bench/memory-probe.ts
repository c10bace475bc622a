/**
 * Preloaded into benchmark servers. Over IPC: 'memory' answers heap and RSS after a full GC;
 * 'loop' answers how late the event loop ran since the last 'loop' (p99 and longest, ms) — a
 * stall there delays every push and answer the server has to make.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { watchStalls } from './stalls.ts';

const delay = monitorEventLoopDelay({ resolution: 10 });
delay.enable();

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
  }
});

watchStalls(process.env.NODE_NAME ?? `server ${process.pid}`);
