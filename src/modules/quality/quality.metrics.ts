/** Quality's metrics (registered by the app from the module's declaration). */
import client from 'prom-client';

export const analyses = new client.Counter({
  name: 'nw_analyses_total',
  help: 'Quality analyses finished on this node, by outcome (scored, unreachable, failed)',
  labelNames: ['outcome'] as const,
  registers: [],
});

export const analysisDuration = new client.Histogram({
  name: 'nw_analysis_duration_seconds',
  help: 'Quality analysis duration, by outcome',
  labelNames: ['outcome'] as const,
  buckets: [0.5, 1, 2, 3, 5, 8, 13, 20, 30, 60],
  registers: [],
});
