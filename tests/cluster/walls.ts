/**
 * Many walls behind one address, as a cluster sees them: the product's screen client
 * (connectScreen, its reconnect options, WebSocket) with each wall bound to a loopback source
 * address of its own (127.0.0.2…), or all from one, as real screens come. Each wall keeps the
 * times it was without a connection, when it moved, and when it saw each scene, for the cluster
 * test and bench:cluster.
 */
import { performance } from 'node:perf_hooks';
import type { ManagerOptions, SocketOptions } from 'socket.io-client';
import type { ScreenState, WallState } from '../../src/shared/events.ts';
import { connectScreen, type ScreenClient } from '../../src/shared/screen-client.ts';
import { applyScreenMessage, versionOf } from '../../src/shared/screen-state.ts';

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
  /** performance.now() each time it moved to another node make-before-break (the new connection answered, the old one let go). */
  moves: number[];
  /** The versions of the default-scene switches it heard pushed (the cluster-wide changes `missedChanges` looks for). */
  switches: number[];
  /** Every state-bearing message's kind and version, in the order received (what `missedChanges` reads). */
  received: { snapshot: boolean; version: number }[];
  /** performance.now() and scene id each time the scene it shows changed. */
  scenes: { at: number; sceneId: number | null }[];
  readonly sceneId: number | null;
  /** Connected and registered (no gap open). */
  readonly back: boolean;
}

const target = { kind: 'wall' as const, follows: null };

/**
 * A lasting device id for each wall this process opens, as every real screen sends one
 * (web/features/screen/identity.ts): the console knows it across moves, and its sighting is one
 * row, not one per connection. Never two walls with one id.
 */
let devices = 0;
const nextDevice = (): string => `clusterwall-${String(devices++).padStart(6, '0')}`;

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
    moves: [],
    switches: [],
    received: [],
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
    registration: { kind: 'wall', name, device: nextDevice() },
    socketOptions,
    // A gap opens when a wall that showed something loses its connection in use (a move keeps it).
    onStatus: (status) => {
      if (status === 'connected') wall.connectedAt = performance.now();
      else if (wall.state !== null) wall.awaySince ??= performance.now();
    },
    onConnectError: (message) => {
      wall.failedAttempts++;
      wall.errors.push(message);
    },
    onMoved: () => wall.moves.push(performance.now()),
    onMessage: (message) => {
      const now = performance.now();
      if (message.type === 'state' && wall.awaySince !== null) {
        wall.gaps.push({ from: wall.awaySince, connected: wall.connectedAt, to: now });
        wall.awaySince = null;
      }
      wall.received.push({ snapshot: message.type === 'state', version: versionOf(message) });
      const before = wall.sceneId;
      wall.state = applyScreenMessage(wall.state, message, target);
      if (wall.sceneId !== before) wall.scenes.push({ at: now, sceneId: wall.sceneId });
    },
  });
  wall.client.listen('scene:default-changed', (payload) => void wall.switches.push(payload.version));
  return wall;
}

/** Opens `count` walls through `base`, `batch` at a time, each waiting for its first state; wall i comes from `from(i)` (a loopback address each by default). */
export async function openWalls(base: string, count: number, options: { batch?: number; timeoutMs?: number; from?: (i: number) => string } = {}): Promise<ClusterWall[]> {
  const from = options.from ?? loopbackAddress;
  const walls: ClusterWall[] = [];
  const batch = options.batch ?? 250;
  while (walls.length < count) {
    const next = Array.from({ length: Math.min(batch, count - walls.length) }, (_, j) => {
      const i = walls.length + j;
      return openWall(base, from(i), `cluster wall ${i}`);
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

/**
 * The default-scene switches (by version) a wall missed: every switch some wall heard pushed is a
 * change every wall must show (they all follow the default scene); a wall covers it by receiving
 * that push, or a full state at least as new before any later push (a registration answer that
 * already holds it). What is left, it never showed. Only versions in (`since`, `upTo`] count, and
 * of a wall only those after its first state.
 */
export function missedChanges(walls: readonly ClusterWall[], since = 0, upTo = Infinity): Map<ClusterWall, number[]> {
  const changes = new Set<number>();
  for (const w of walls) for (const v of w.switches) if (v > since && v <= upTo) changes.add(v);
  const missed = new Map<ClusterWall, number[]>();
  for (const w of walls) {
    const left: number[] = [];
    // A wall that joined later owes only the changes after its first state.
    const joined = w.received[0]?.snapshot ? w.received[0].version : 0;
    for (const v of changes) {
      if (v <= joined) continue;
      let covered = false;
      for (const m of w.received) {
        if (m.version === v || (m.snapshot && m.version >= v)) {
          covered = true;
          break;
        }
        if (!m.snapshot && m.version > v) break; // a later change came first: this one was skipped
      }
      if (!covered) left.push(v);
    }
    if (left.length > 0) missed.set(w, left);
  }
  return missed;
}

/** The highest version any of `walls` has received so far (changes after it are newer). */
export function newestVersion(walls: readonly ClusterWall[]): number {
  let newest = 0;
  for (const w of walls) for (const m of w.received) newest = Math.max(newest, m.version);
  return newest;
}
