/**
 * The analysis queue's lanes, highest priority first: what an operator sees waiting on the
 * Streams tab, and the order in which the server works them.
 */
export const QUEUE_LANES = ['manual', 'screens', 'on-screen', 'ranking', 'new', 'sweep'] as const;
export type QueueLane = (typeof QUEUE_LANES)[number];

/** How the console names each lane. */
export const LANE_LABELS: Record<QueueLane, string> = {
  manual: 'Requested by an admin',
  screens: 'Failing on a screen',
  'on-screen': 'On screens',
  ranking: 'Ranking candidates',
  new: 'Newly added',
  sweep: 'Periodic re-check',
};
