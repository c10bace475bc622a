/** What a direct player does around a flip (web/components/Player/flip-hold.ts). */
import { describe, expect, it } from 'vitest';
import { HELD_SEEK_LEAD_MS, heldSeekAllowed, HOLD_MAX_MS, QUIET_LOADS_AFTER_MS, QUIET_LOADS_BEFORE_MS, quietLoads, shouldHold, type HoldReading } from '../../web/components/Player/flip-hold.ts';

const picture: HoldReading = { held: true, holding: false, spent: false, readyState: 2, seeking: false, msUntilFlip: 600 };

describe('a player waiting for its flip holds at its first picture', () => {
  it('holds once it has a picture where it stands and its flip is near', () => {
    expect(shouldHold(picture)).toBe(true);
    expect(shouldHold({ ...picture, readyState: 4, msUntilFlip: HOLD_MAX_MS })).toBe(true);
  });

  it('does not hold without a picture, or while hls.js seeks into its first segment', () => {
    expect(shouldHold({ ...picture, readyState: 1 })).toBe(false);
    expect(shouldHold({ ...picture, readyState: 0 })).toBe(false);
    // 'loadeddata' at readyState 1: hls.js seeking to its start position just after loading it
    expect(shouldHold({ ...picture, seeking: true })).toBe(false);
  });

  it('loads on while its flip is further than a hold may last (a long lead would play its buffer out of sight)', () => {
    expect(shouldHold({ ...picture, msUntilFlip: HOLD_MAX_MS + 1 })).toBe(false);
    expect(shouldHold({ ...picture, msUntilFlip: 9_000 })).toBe(false);
    expect(shouldHold({ ...picture, msUntilFlip: Infinity })).toBe(false);
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
  /** A player at a readyState: with a picture (2+) it has had a segment; below it, none asked yet. */
  const at = (readyState: number) => ({ readyState, segmentAsked: readyState >= 2 });

  it('pauses players with a picture from shortly before the instant until shortly after it', () => {
    expect(quietLoads(at(4), QUIET_LOADS_BEFORE_MS - 1)).toBe(true);
    expect(quietLoads(at(2), 0)).toBe(true);
    expect(quietLoads(at(4), -200)).toBe(true); // the flip frame and its catch-up
    expect(quietLoads(at(4), -(QUIET_LOADS_AFTER_MS - 1))).toBe(true);
  });

  it('lets every player load otherwise — a flip left waiting past its instant stops nothing for good', () => {
    expect(quietLoads(at(4), QUIET_LOADS_BEFORE_MS)).toBe(false);
    expect(quietLoads(at(4), Infinity)).toBe(false);
    expect(quietLoads(at(4), -QUIET_LOADS_AFTER_MS)).toBe(false);
    expect(quietLoads(at(4), -60_000)).toBe(false);
  });

  it('never pauses a player that has not asked for its first segment: the flip will show it', () => {
    expect(quietLoads(at(1), 100)).toBe(false);
    expect(quietLoads(at(0), 0)).toBe(false);
  });

  it('pauses one whose first segment is on its way: that segment still comes, the next waits', () => {
    expect(quietLoads({ readyState: 0, segmentAsked: true }, 100)).toBe(true);
    expect(quietLoads({ readyState: 1, segmentAsked: true }, -100)).toBe(true);
    expect(quietLoads({ readyState: 1, segmentAsked: true }, QUIET_LOADS_BEFORE_MS)).toBe(false);
  });
});
