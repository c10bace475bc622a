/** How the server chooses each HLS stream's shared latency and start variant (src/shared/streams/playback.ts). */
import { describe, expect, it } from 'vitest';
import { startBandwidth, syncLatencyMs } from '../../src/shared/streams/playback.ts';

describe('the shared latency behind program time', () => {
  it('is three target durations and a second', () => {
    expect(syncLatencyMs(1)).toBe(4_000);
    expect(syncLatencyMs(6)).toBe(19_000);
    expect(syncLatencyMs(2.002)).toBe(7_006);
  });

  it('never reaches before the window, half a target duration from its start', () => {
    expect(syncLatencyMs(2, 10)).toBe(7_000); // the corpus's 5 segments: room enough
    expect(syncLatencyMs(2, 6)).toBe(5_000); // 3 segments of 2 s: 5 s, not 7
    expect(syncLatencyMs(6, 18)).toBe(15_000);
    expect(syncLatencyMs(2, 4.9)).toBeNull(); // under two target durations and a half: the live edge
  });
});

describe('the variant a player starts at', () => {
  it('is the cheapest at least 360 p high', () => {
    const ladder = [
      { bandwidth: 6_000_000, height: 1080 },
      { bandwidth: 250_000, height: 234 },
      { bandwidth: 800_000, height: 360 },
      { bandwidth: 2_500_000, height: 720 },
    ];
    expect(startBandwidth(ladder)).toBe(800_000);
  });

  it('is the cheapest of all when none is that high, or when heights are unknown', () => {
    expect(startBandwidth([{ bandwidth: 400_000, height: 240 }, { bandwidth: 150_000, height: 144 }])).toBe(150_000);
    expect(startBandwidth([{ bandwidth: 3_000_000, height: null }, { bandwidth: 900_000, height: null }])).toBe(900_000);
  });

  it('is not chosen for a single variant, or variants without a bandwidth', () => {
    expect(startBandwidth([{ bandwidth: 800_000, height: 360 }])).toBeNull();
    expect(startBandwidth([{ bandwidth: null, height: 720 }, { bandwidth: 0, height: 360 }])).toBeNull();
    expect(startBandwidth([])).toBeNull();
  });
});
