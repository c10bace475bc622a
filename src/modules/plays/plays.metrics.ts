import client from 'prom-client';

/** Proof-of-play records screens sent, by verdict (kept, clipped, or why refused: src/shared/plays.ts). */
export const playRecordsTotal = new client.Counter({
  name: 'nw_play_records_total',
  help: 'Proof-of-play records screens sent on this node, by verdict (kept, clipped, or the reason refused)',
  labelNames: ['verdict'] as const,
  registers: [],
});
