/**
 * The fan-out's order on one node, with the hub's server stood in for (what is checked here is
 * the queue, not the transport): a notice made here is pushed before a notice from another node
 * that arrives right after it was made.
 */
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/logger.ts';
import { createFanout } from '../../src/realtime/fanout.ts';
import type { HubServer } from '../../src/realtime/io-server.ts';
import type { ChangeNotice, ScreenFeature } from '../../src/realtime/screen-feature.ts';

function standIn() {
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
});
