import client from 'prom-client';

/** Proof-of-play records screens sent, by verdict (kept, clipped, or why refused: src/shared/plays.ts). */
export const playRecordsTotal = new client.Counter({
  name: 'nw_play_records_total',
  help: 'Proof-of-play records screens sent on this node, by verdict (kept, clipped, or the reason refused)',
  labelNames: ['verdict'] as const,
  registers: [],
});

/** Records refused or clipped on this node since it started (what the console shows beside the totals). */
export async function playRecordsDoubted(): Promise<number> {
  const { values } = await playRecordsTotal.get();
  return values.filter((v) => v.labels.verdict !== 'kept').reduce((sum, v) => sum + v.value, 0);
}
