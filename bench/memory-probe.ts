/** Preloaded into benchmark servers: answers 'memory' over IPC with heap and RSS after a full GC. */
process.on('message', (message) => {
  if (message !== 'memory') return;
  const gc = (globalThis as { gc?: () => void }).gc;
  for (let i = 0; i < 3; i++) gc?.();
  const { heapUsed, rss } = process.memoryUsage();
  process.send?.({ heapUsed, rss });
});

import { watchStalls } from './stalls.ts';

watchStalls(process.env.NODE_NAME ?? `server ${process.pid}`);
