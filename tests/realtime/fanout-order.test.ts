/**
 * The fan-out's order on one node, with the hub's server stood in for (what is checked here is
 * the queue, not the transport): a notice made here is pushed before a notice from another node
 * that arrives right after it was made, and notices are pushed in version order whatever order
 * they arrive in, a missing version holding the later ones for a bounded moment only.
 */
import { describe, expect, it } from 'vitest';
import { createNoticeOrder } from '../../src/realtime/notice-order.ts';
import { createLogger } from '../../src/logger.ts';
import { createFanout } from '../../src/realtime/fanout.ts';
import type { HubServer } from '../../src/realtime/io-server.ts';
import type { ChangeNotice, ScreenFeature } from '../../src/realtime/screen-feature.ts';

function standIn(holdMs?: number) {
  const handlers = new Map<string, (notice: ChangeNotice) => void>();
  const io = {
    on: (event: string, handler: (notice: ChangeNotice) => void) => void handlers.set(event, handler),
    serverSideEmit: () => true,
    of: () => ({ adapter: { rooms: new Map() } }),
  } as unknown as HubServer;
  const pushed: number[] = [];
  const screens: ScreenFeature = {
    register: () => Promise.reject(new Error('not here')),
    stateFor: () => Promise.reject(new Error('not here')),
    origin: () => Promise.resolve({}),
    apply: (notice) => Promise.resolve(void pushed.push(notice.version)),
    resync: () => Promise.resolve(),
  };
  let version = 10;
  const fanout = createFanout({
    io,
    versions: { next: () => Promise.resolve(++version), current: () => Promise.resolve(version) },
    initialVersion: version,
    screens,
    features: [],
    logger: createLogger('silent'),
    holdMs,
  });
  return { fanout, pushed, fromElsewhere: (notice: ChangeNotice) => handlers.get('nw:changes')!(notice) };
}

describe('the fan-out queue', () => {
  it("keeps a notice made here ahead of another node's that arrives right after it", async () => {
    const { fanout, pushed, fromElsewhere } = standIn();
    await fanout.publisher.publish([{ type: 'config.updated' } as never]);
    // Another node's later change arrives in the same turn.
    fromElsewhere({ version: 12, changes: [{ type: 'config.updated' } as never], facts: {} });
    await fanout.idle();
    expect(pushed).toEqual([11, 12]);
    expect(fanout.appliedVersion()).toBe(12);
  });

  it('pushes notices from two other nodes in version order when the later one arrives first', async () => {
    const { fanout, pushed, fromElsewhere } = standIn(60_000);
    const change = [{ type: 'config.updated' } as never];
    fromElsewhere({ version: 12, changes: change, facts: {} });
    await new Promise((r) => setTimeout(r, 20));
    expect(pushed).toEqual([]); // 11 is missing: 12 waits for it
    fromElsewhere({ version: 11, changes: change, facts: {} });
    await fanout.idle();
    expect(pushed).toEqual([11, 12]);
  });

  it('pushes the later notices once the hold runs out on a version nobody announces, and a late one after them', async () => {
    const { fanout, pushed, fromElsewhere } = standIn(30);
    const change = [{ type: 'config.updated' } as never];
    fromElsewhere({ version: 13, changes: change, facts: {} });
    fromElsewhere({ version: 12, changes: change, facts: {} });
    await fanout.idle(); // waits out the hold on 11
    expect(pushed).toEqual([12, 13]);
    expect(fanout.appliedVersion()).toBe(13);
    fromElsewhere({ version: 11, changes: change, facts: {} });
    await fanout.idle();
    expect(pushed).toEqual([12, 13, 11]); // handed on (features may need it); screens keep 13
    expect(fanout.appliedVersion()).toBe(13);
  });
});

describe('the notice order', () => {
  it('hands on contiguous versions at once, holds past a gap, and waits afresh after a gap fills', async () => {
    const gaps: number[] = [];
    const order = createNoticeOrder({ start: 0, holdMs: 40, onGap: (v) => gaps.push(v) });
    const out: number[] = [];
    const add = (v: number) => order.add(v, () => out.push(v));
    add(1);
    add(3);
    expect(out).toEqual([1]);
    expect(order.held()).toBe(1);
    add(2);
    expect(out).toEqual([1, 2, 3]);
    expect(order.held()).toBe(0);
    add(5);
    await new Promise((r) => setTimeout(r, 30));
    add(7);
    add(4); // fills the first gap 30 ms in: 7 waits a full hold for 6 from here
    expect(out).toEqual([1, 2, 3, 4, 5]);
    await new Promise((r) => setTimeout(r, 25));
    expect(out).toEqual([1, 2, 3, 4, 5]);
    await order.drained();
    expect(out).toEqual([1, 2, 3, 4, 5, 7]);
    expect(gaps).toEqual([6]);
    add(6); // late: handed on at once
    expect(out).toEqual([1, 2, 3, 4, 5, 7, 6]);
    expect(order.held()).toBe(0);
  });
});
