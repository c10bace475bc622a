/**
 * Many walls behind one address, as a cluster sees them: the product's screen client
 * (connectScreen, its reconnect options, WebSocket) with each wall bound to a loopback source
 * address of its own (127.0.0.2…), so nginx's `hash $remote_addr consistent` spreads them over
 * the nodes as it spreads real screens. Each wall keeps the times it was without a connection
 * and when it saw each scene, for the cluster test and bench:cluster.
 */
import { performance } from 'node:perf_hooks';
import type { ManagerOptions, SocketOptions } from 'socket.io-client';
import type { ScreenState, WallState } from '../../src/shared/events.ts';
import { connectScreen, type ScreenClient } from '../../src/shared/screen-client.ts';
import { applyScreenMessage } from '../../src/shared/screen-state.ts';

/** The i-th loopback source address of 253 (127.0.0.2 … 127.0.0.254; Linux routes all of 127/8 to lo). */
export const loopbackAddress = (i: number): string => `127.0.0.${2 + (i % 253)}`;

export interface ClusterWall {
  client: ScreenClient;
  address: string;
  state: ScreenState | null;
  /** performance.now() of the disconnect not yet followed by a registration snapshot, else null. */
  awaySince: number | null;
  /** performance.now() of the last connect. */
  connectedAt: number;
  /** Each time it was away: disconnect → connected again (`connected`) → the registration snapshot (`to`). */
  gaps: { from: number; connected: number; to: number }[];
  /** Connection attempts that failed (a refused handshake, an unreachable server) — each one costs a reconnect delay. */
  failedAttempts: number;
  /** Why each failed attempt failed (the client's error message). */
  errors: string[];
  /** performance.now() and scene id each time the scene it shows changed. */
  scenes: { at: number; sceneId: number | null }[];
  readonly sceneId: number | null;
  /** Connected and registered (no gap open). */
  readonly back: boolean;
}

const target = { kind: 'wall' as const, follows: null };

export function openWall(base: string, address: string, name: string): ClusterWall {
  const wall: ClusterWall = {
    client: undefined as unknown as ScreenClient,
    address,
    state: null,
    awaySince: null,
    connectedAt: 0,
    gaps: [],
    failedAttempts: 0,
    errors: [],
    scenes: [],
    get sceneId() {
      return (this.state as WallState | null)?.scene?.id ?? null;
    },
    get back() {
      return this.awaySince === null && this.state !== null && this.client.socket.connected;
    },
  };
  // `localAddress` reaches the `ws` WebSocket (engine.io-client passes it on); the client's
  // option types omit it. WebSocket only: Node's long-polling transport cannot bind an address.
  const socketOptions = { transports: ['websocket'], forceNew: true, localAddress: address } as Partial<ManagerOptions & SocketOptions>;
  wall.client = connectScreen({
    url: base,
    registration: { kind: 'wall', name },
    socketOptions,
    onMessage: (message) => {
      const now = performance.now();
      if (message.type === 'state' && wall.awaySince !== null) {
        wall.gaps.push({ from: wall.awaySince, connected: wall.connectedAt, to: now });
        wall.awaySince = null;
      }
      const before = wall.sceneId;
      wall.state = applyScreenMessage(wall.state, message, target);
      if (wall.sceneId !== before) wall.scenes.push({ at: now, sceneId: wall.sceneId });
    },
  });
  wall.client.socket.on('disconnect', () => (wall.awaySince ??= performance.now()));
  wall.client.socket.on('connect', () => (wall.connectedAt = performance.now()));
  wall.client.socket.on('connect_error', (err) => {
    wall.failedAttempts++;
    wall.errors.push(err.message);
  });
  return wall;
}

/** Opens `count` walls through `base`, `batch` at a time, each waiting for its first state. */
export async function openWalls(base: string, count: number, options: { batch?: number; timeoutMs?: number } = {}): Promise<ClusterWall[]> {
  const walls: ClusterWall[] = [];
  const batch = options.batch ?? 250;
  while (walls.length < count) {
    const next = Array.from({ length: Math.min(batch, count - walls.length) }, (_, j) => {
      const i = walls.length + j;
      return openWall(base, loopbackAddress(i), `cluster wall ${i}`);
    });
    walls.push(...next);
    await until(() => next.every((w) => w.state !== null), options.timeoutMs ?? 60_000, `${count} walls registered`);
  }
  return walls;
}

/** When the wall first showed `sceneId` at or after `since` (performance.now()), if it did. */
export function sawSceneAt(wall: ClusterWall, sceneId: number, since: number): number | undefined {
  return wall.scenes.find((s) => s.at >= since && s.sceneId === sceneId)?.at;
}

/** Polls until `check` holds; throws naming `what` after `timeoutMs` (an upper bound, not a measurement). */
export async function until(check: () => boolean | Promise<boolean>, timeoutMs: number, what: string, everyMs = 10): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`never happened within ${timeoutMs} ms: ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
