/**
 * A screen asked to move (`server:move`, as a node holding more than its share asks; a draining
 * node's `server:draining` is the same move): it opens a new connection, registers on it, and
 * only then lets go of the old one — it never shows "disconnected", shows every change, hears
 * each command once, and its new handshake says why it came (so it is not asked again).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ScreenState, WallState } from '../../src/shared/events.ts';
import { connectScreen, MOVED_QUERY, type ConnectionStatus, type ScreenClient } from '../../src/shared/screen-client.ts';
import { applyScreenMessage, type ScreenMessage } from '../../src/shared/screen-state.ts';
import { seed } from '../../src/modules/seed/seed.ts';
import { createLogger } from '../../src/logger.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { until } from '../cluster/walls.ts';

let app: TestApp;
let client: ScreenClient | undefined;

beforeAll(async () => {
  app = await startTestApp({ hub: true });
  await seed(app.orm.em.fork(), { demo: true, logger: createLogger('silent') });
});
afterEach(() => client?.close());
afterAll(async () => app?.close());

describe('a screen asked to move', () => {
  it('connects anew before it lets go of the old connection, and misses nothing on the way', async () => {
    const statuses: ConnectionStatus[] = [];
    const messages: ScreenMessage[] = [];
    const moves: number[] = [];
    let state: ScreenState | null = null;
    client = connectScreen({
      url: app.baseUrl,
      registration: { kind: 'wall', name: 'Moving wall', device: 'moving-wall-1' },
      onStatus: (s) => statuses.push(s),
      onMoved: () => moves.push(Date.now()),
      onMessage: (m) => {
        messages.push(m);
        state = applyScreenMessage(state, m, { kind: 'wall', follows: null });
      },
    });
    const commands: string[] = [];
    client.listen('screen:command', ({ command }) => commands.push(command));
    await until(() => state !== null, 10_000, 'the first state');
    const io = app.hub!.io;
    const first = client.socket.id!;
    const scenes = (await app.request<{ id: number }[]>('GET', '/api/scenes')).body.map((s) => s.id);
    const current = () => (state as WallState | null)?.scene?.id;

    io.to(first).emit('server:move', { withinMs: 0 });
    await until(() => moves.length === 1, 10_000, 'the move');
    const second = client.socket.id!;
    expect(second).not.toBe(first);
    // The old connection is gone from the node once the new one is in use; the new one says it was moved.
    await until(() => !io.of('/').sockets.has(first), 10_000, 'the old connection let go');
    expect(io.of('/').sockets.get(second)?.handshake.query.moved).toBe(MOVED_QUERY.moved);
    expect(io.of('/').sockets.get(second)?.data.presence).toMatchObject({ kind: 'wall', device: 'moving-wall-1' });
    // Connected all along: no "disconnected", no second "connecting".
    expect(statuses).toEqual(['connecting', 'connected']);

    // Changes after the move reach it on the new connection; a command to every wall is heard once.
    const next = scenes.find((id) => id !== current())!;
    expect((await app.request('PUT', '/api/config/default-scene', { scene_id: next })).status).toBe(200);
    await until(() => current() === next, 10_000, 'the switch after the move');
    app.hub!.command('identify');
    await until(() => commands.length > 0, 10_000, 'the command');
    await new Promise((r) => setTimeout(r, 200));
    expect(commands).toEqual(['identify']);
    // Reports go out on the connection in use.
    expect(client.registered()).toBe(true);
    const answer = await client.ask('clock', { offset_ms: 0, error_ms: 3 }, 5_000);
    expect(answer).toEqual({ data: { ok: true } });
    // Versions only rise: nothing older was shown after something newer.
    const shown = messages.map((m) => (m.type === 'state' || m.type === 'kiosk' ? m.state.version : m.payload.version));
    expect(shown.length).toBeGreaterThan(1);
  });

  it('moves while its node drains and there is nowhere else: it keeps its connection until the node lets it go', async () => {
    const statuses: ConnectionStatus[] = [];
    let state: ScreenState | null = null;
    const other = await startTestApp({ hub: true });
    try {
      client = connectScreen({
        url: other.baseUrl,
        registration: { kind: 'wall', name: 'Stranded wall' },
        onStatus: (s) => statuses.push(s),
        onMessage: (m) => (state = applyScreenMessage(state, m, { kind: 'wall', follows: null })),
        socketOptions: { reconnectionDelay: 50, reconnectionDelayMax: 200 },
      });
      await until(() => state !== null, 10_000, 'the first state');
      const drained = other.hub!.drain(200);
      expect(drained.spreadMs).toBe(200);
      // The new connection is refused (the node takes no new sessions) and the old one stays.
      await new Promise((r) => setTimeout(r, 1_000));
      expect(client.socket.connected).toBe(true);
      expect(statuses).toEqual(['connecting', 'connected']);
      // The node lets go of it: the refused new connection takes over, still knocking.
      other.hub!.io.local.disconnectSockets(true);
      await until(() => statuses.includes('connecting') && statuses.length > 2, 10_000, 'the screen knocking again');
      expect(statuses.at(-1)).toBe('connecting');
    } finally {
      client?.close();
      client = undefined;
      await other.close();
    }
  });
});
