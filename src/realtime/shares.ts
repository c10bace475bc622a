/**
 * Even shares across a cluster. A load balancer balances new connections only (nginx
 * `least_conn`), so after a rolling restart the node restarted last holds few screens and the
 * others too many — for as long as the screens stay connected, which is days. So every node tells
 * the others, through the adapter, how many connections it holds and its name (NODE_NAME); a
 * node holding clearly more than the mean for a while asks a batch of its screens to move
 * (`server:move`: each opens a new connection before it lets go of this one —
 * src/shared/screen-client.ts), until it is back near the mean. Screens that moved for this
 * reason are never asked again on their new node (their handshake says so).
 *
 * Where they go is said, not left to the balancer: each moving screen is given the name of the
 * node with the fewest (`destinations`), which its handshake carries (`nw_node`) and the shipped
 * nginx routes by (deploy/nginx/nature-wall.conf). The balancer alone would do worse: nginx
 * marks a draining node failed (its refused handshakes) and, once it is back, lets through one
 * WebSocket per fail_timeout until a short request succeeds — a WebSocket reports its success
 * only when it closes. A draining node sends its screens the same way, spread over the others by
 * what each lacks. Without names (no NODE_NAME) screens reconnect through the balancer.
 */
import { z } from 'zod';
import type { HubServer, HubSocket } from './io-server.ts';
import { paceMoves, SHARE_PACE } from './moves.ts';
import { MOVED_QUERY } from '../shared/events.ts';

/** When a node sheds screens, and how many at a time. */
export interface ShareRule {
  /** How often each node tells the others its count (and looks at the shares). */
  everyMs: number;
  /** Over `above` × the mean for this long before any screen is asked to move (0: never move). */
  holdMs: number;
  /** A node is over its share above this multiple of the mean (or when another is as far below it)… */
  above: number;
  /** …and, once moving screens, stops at this multiple (below `above`, so it does not hover at the edge). */
  target: number;
  /** At most this fraction of its connections in one batch (at least one). */
  batch: number;
}

export const DEFAULT_SHARE_RULE: ShareRule = { everyMs: 5_000, holdMs: 15_000, above: 1.15, target: 1.05, batch: 0.25 };

/** What a node remembers between looks: since when it has been over its share, and whether it is shedding. */
export interface ShareState {
  overSince: number | null;
  shedding: boolean;
  /** When its last batch was asked to move (the next look waits for the others' counts to follow). */
  lastBatchAt: number | null;
}

export const NO_SHARE_STATE: ShareState = { overSince: null, shedding: false, lastBatchAt: null };

/**
 * One look at the shares: how many of its screens this node asks to move now. `others` are the
 * counts the other live nodes reported (draining ones left out). A batch is followed by one
 * look without any, so the counts the others report have caught up with it.
 */
export function screensToMove(mine: number, others: readonly number[], state: ShareState, now: number, rule: ShareRule): { move: number; state: ShareState } {
  if (others.length === 0 || rule.holdMs <= 0) return { move: 0, state: NO_SHARE_STATE };
  const mean = (mine + others.reduce((a, b) => a + b, 0)) / (others.length + 1);
  // Out of the band: this node above it, or another below it while this one is above the target
  // (two nodes just inside the band can leave a third as far below it).
  const over = mine > mean * rule.above || (Math.min(...others) < mean * (2 - rule.above) && mine > mean * rule.target);
  if (!over && !state.shedding) return { move: 0, state: NO_SHARE_STATE };
  const overSince = state.overSince ?? now;
  const shedding = state.shedding || now - overSince >= rule.holdMs;
  if (!shedding) return { move: 0, state: { ...state, overSince } };
  const excess = mine - Math.floor(mean * rule.target);
  if (excess <= 0) return { move: 0, state: NO_SHARE_STATE };
  if (state.lastBatchAt !== null && now - state.lastBatchAt < 2 * rule.everyMs) return { move: 0, state: { ...state, overSince, shedding } };
  const move = Math.min(excess, Math.max(1, Math.ceil(mine * rule.batch)));
  return { move, state: { overSince, shedding, lastBatchAt: now } };
}

/** How long a screen that arrived by such a move rests before it may be asked again (never twice in a row). */
export const MOVED_REST_MS = 30_000;

/**
 * Which screens go: walls and kiosks, longest connected first — those that did not arrive by
 * such a move before those that did, and of those only ones here for MOVED_REST_MS (a screen
 * that just arrived to even the shares out is not sent on again by the same evening out).
 */
export function screensToAsk(sockets: Iterable<HubSocket>, count: number, now = Date.now()): HubSocket[] {
  const settled: HubSocket[] = [];
  const moved: HubSocket[] = [];
  for (const socket of sockets) {
    const p = socket.data.presence;
    if (!p || (p.kind !== 'wall' && p.kind !== 'kiosk')) continue;
    if (socket.handshake.query.moved !== MOVED_QUERY.moved) settled.push(socket);
    else if (now - socket.handshake.issued >= MOVED_REST_MS) moved.push(socket);
  }
  const oldestFirst = (a: HubSocket, b: HubSocket) => a.handshake.issued - b.handshake.issued;
  return [...settled.sort(oldestFirst), ...moved.sort(oldestFirst)].slice(0, count);
}

/** A node's count as the others hear it (`name`: its NODE_NAME; `draining`: it is leaving, left out of the mean). */
export const ShareReport = z.object({
  node: z.string().max(64),
  name: z.string().regex(/^[A-Za-z0-9_-]{1,32}$/).nullable(),
  connections: z.number().int().min(0),
  draining: z.boolean(),
  /** Admin consoles connected to it (absent from a node of an earlier release: then taken as some). */
  admins: z.number().int().min(0).optional(),
});
export type ShareReport = z.infer<typeof ShareReport>;

/** Another live node as this one knows it. */
export interface OtherNode {
  name: string | null;
  connections: number;
}

/**
 * Where `count` moving screens go: one named node each, always the one with the fewest so far
 * (what it holds plus what it was given), so the others end as even as they can. Empty when no
 * other node has a name (the screens then reconnect through the balancer).
 */
export function destinations(count: number, others: readonly OtherNode[]): string[] {
  const named = others.filter((o): o is OtherNode & { name: string } => o.name !== null).map((o) => ({ name: o.name, load: o.connections }));
  if (named.length === 0) return [];
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    let least = named[0]!;
    for (const n of named) if (n.load < least.load) least = n;
    least.load++;
    out.push(least.name);
  }
  return out;
}

export interface Shares {
  /** The other live nodes (draining ones and ones not heard from lately left out). */
  others(): OtherNode[];
  /** This node listens now: it tells the others at once. */
  listening(): void;
  /** This node is draining: it tells the others at once, and stops shedding. */
  leave(): void;
  /** Whether another node holds an admin console (one not heard from lately holds none; one that does not say, some). */
  adminsElsewhere(): boolean;
  /** Something the others hear changed (an admin console came): they are told at once, not at the next round. */
  tell(): void;
  close(): void;
}

/**
 * Tells the others this node's count every `rule.everyMs` — from when `listening()` holds: a node
 * not yet listening must not be sent screens — and sheds screens by the rule.
 */
export function watchShares(
  io: HubServer,
  self: { node: string; name: string | null },
  rule: ShareRule,
  listening: () => boolean,
  log: { info(obj: object, msg: string): void },
  /** This node's admin consoles now (told with its count: presence pushes go only where someone hears them). */
  admins: () => number = () => 0,
): Shares {
  const heard = new Map<string, { name: string | null; connections: number; draining: boolean; admins?: number | undefined; at: number }>();
  let state = NO_SHARE_STATE;
  let draining = false;
  let pacing: { stop(): void } | undefined;
  const connections = () => io.of('/').sockets.size;
  const tell = () => listening() && io.serverSideEmit('nw:share', { ...self, connections: connections(), draining, admins: admins() } satisfies ShareReport);
  io.on('nw:share', (raw: unknown) => {
    const report = ShareReport.safeParse(raw);
    if (report.success && report.data.node !== self.node) heard.set(report.data.node, { ...report.data, at: Date.now() });
  });
  /** Not heard from for three rounds: gone without a word (killed). */
  const silent = (share: { at: number }, now: number) => now - share.at > 3 * rule.everyMs;
  const others = (): OtherNode[] => {
    const now = Date.now();
    const live: OtherNode[] = [];
    for (const [other, share] of heard) {
      if (silent(share, now)) heard.delete(other);
      else if (!share.draining) live.push({ name: share.name, connections: share.connections });
    }
    return live;
  };

  const look = () => {
    const now = Date.now();
    const live = others();
    tell();
    if (draining) return;
    const mine = connections();
    const next = screensToMove(mine, live.map((o) => o.connections), state, now, rule);
    state = next.state;
    if (next.move === 0) return;
    const asked = screensToAsk(io.of('/').sockets.values(), next.move);
    const to = destinations(asked.length, live);
    // A few at a time: the receiving node takes them at its pace (moves.ts).
    pacing?.stop();
    pacing = paceMoves(asked, (socket, i) => socket.emit('server:move', { withinMs: SHARE_PACE.jitterMs, ...(to[i] ? { to: to[i] } : {}) }), SHARE_PACE);
    log.info({ connections: mine, others: live, asked: asked.length }, 'more than its share of screens: asking some to move');
  };
  const timer = setInterval(look, rule.everyMs);
  timer.unref();
  return {
    others,
    // A node that starts is known as soon as it listens (with its few connections: the others start shedding).
    listening: tell,
    leave() {
      draining = true;
      pacing?.stop();
      tell();
    },
    adminsElsewhere() {
      const now = Date.now();
      for (const share of heard.values()) if (!silent(share, now) && share.admins !== 0) return true;
      return false;
    },
    tell: () => void tell(),
    close: () => {
      clearInterval(timer);
      pacing?.stop();
    },
  };
}
