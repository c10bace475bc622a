/** What a direct player does around a flip (web/components/Player/flip-hold.ts). */
import { describe, expect, it } from 'vitest';
import { HELD_SEEK_LEAD_MS, heldSeekAllowed, QUIET_LOADS_BEFORE_MS, quietLoads, shouldHold, type HoldReading } from '../../web/components/Player/flip-hold.ts';

const picture: HoldReading = { held: true, holding: false, spent: false, readyState: 2, seeking: false };

describe('a player waiting for its flip holds at its first picture', () => {
  it('holds once it has a picture where it stands', () => {
    expect(shouldHold(picture)).toBe(true);
    expect(shouldHold({ ...picture, readyState: 4 })).toBe(true);
  });

  it('does not hold without a picture, or while hls.js seeks into its first segment', () => {
    expect(shouldHold({ ...picture, readyState: 1 })).toBe(false);
    expect(shouldHold({ ...picture, readyState: 0 })).toBe(false);
    // 'loadeddata' at readyState 1: hls.js seeking to its start position just after loading it
    expect(shouldHold({ ...picture, seeking: true })).toBe(false);
  });

  it('holds only while its flip waits, once at a time, and not again after its hold ran out', () => {
    expect(shouldHold({ ...picture, held: false })).toBe(false);
    expect(shouldHold({ ...picture, holding: true })).toBe(false);
    expect(shouldHold({ ...picture, spent: true })).toBe(false);
  });

  it('seeks to the shared moment while held only with time to load there before the flip', () => {
    expect(heldSeekAllowed(HELD_SEEK_LEAD_MS)).toBe(true);
    expect(heldSeekAllowed(2_000)).toBe(true);
    expect(heldSeekAllowed(HELD_SEEK_LEAD_MS - 1)).toBe(false);
    expect(heldSeekAllowed(0)).toBe(false);
    expect(heldSeekAllowed(Infinity)).toBe(true); // no flip waits (it was released before)
  });
});

describe('no new segment loads in the frames around a flip', () => {
  it('pauses players with a picture from shortly before the instant until the flip is caught up', () => {
    expect(quietLoads(4, QUIET_LOADS_BEFORE_MS - 1, false)).toBe(true);
    expect(quietLoads(2, 0, false)).toBe(true);
    expect(quietLoads(4, -40, false)).toBe(true); // the instant passed, the flip frame not yet run
    expect(quietLoads(4, Infinity, true)).toBe(true); // shown, React not caught up
  });

  it('lets every player load otherwise', () => {
    expect(quietLoads(4, QUIET_LOADS_BEFORE_MS, false)).toBe(false);
    expect(quietLoads(4, Infinity, false)).toBe(false);
  });

  it('never pauses a player still without its first picture: the flip will show it', () => {
    expect(quietLoads(1, 100, false)).toBe(false);
    expect(quietLoads(0, 0, true)).toBe(false);
  });
});
