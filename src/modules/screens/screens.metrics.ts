import client from 'prom-client';

/** Video frames screens' players decoded, by whether they were presented or dropped (their dropped_frames reports). */
export const videoFrames = new client.Counter({
  name: 'nw_screen_video_frames_total',
  help: "Video frames the players of this node's walls and kiosks decoded, by outcome (presented, or dropped because the decoder or the page could not keep up)",
  labelNames: ['outcome'] as const,
  registers: [],
});
