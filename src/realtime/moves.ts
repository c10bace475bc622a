/**
 * Screens told to move a few at a time, at the pace the cluster takes them: at most `concurrent`
 * moving at once (a screen's slot is free once its old connection here has gone — it moved — or
 * after `slotTimeoutMs`, for one that ignores the notice), and no more than `perSecond` told a
 * second. A fixed window would be too short on a busy cluster (moves pile up, and the node's
 * grace runs out with screens still on it) and needlessly long on a quiet one; this goes as fast
 * as screens actually arrive elsewhere. Each is told to move within `jitterMs`.
 */
import type { HubSocket } from './io-server.ts';

export interface MovePace {
  concurrent: number;
  perSecond: number;
  slotTimeoutMs: number;
  jitterMs: number;
}

/**
 * A draining node: 150 told a second (1,000 screens: 6.7 s; never a stampede), each moving within
 * a second of being told. Not limited by screens under way: a slot frees only when the node sees
 * the old connection go, which lags the move itself under load — capped that way (100 at once),
 * 500 screens did not all move within a 20 s grace here (bench:cluster, docs/benchmarks.md).
 */
export const DRAIN_PACE: MovePace = { concurrent: Infinity, perSecond: 150, slotTimeoutMs: 10_000, jitterMs: 1_000 };
/** A node evening out its share: no hurry, and the cluster is otherwise at work. */
export const SHARE_PACE: MovePace = { concurrent: 20, perSecond: 50, slotTimeoutMs: 10_000, jitterMs: 250 };

/** The least time `count` screens take at `pace` (what a drain says it will take). */
export const paceMs = (count: number, pace: MovePace): number => Math.ceil((count / pace.perSecond) * 1_000);

/** Tells each of `sockets` in turn (`tell(socket, i)`), paced; `stop` tells no more. */
export function paceMoves(sockets: readonly HubSocket[], tell: (socket: HubSocket, index: number) => void, pace: MovePace): { stop(): void } {
  let next = 0;
  let told = 0;
  let moving = 0;
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const startedAt = Date.now();
  const pump = (): void => {
    timer = undefined;
    // A budget, not a tick per screen: a busy node's timers fire late, and one screen per timer
    // would fall far below the pace. As many as the time since the start allows are told now.
    const due = Math.floor(((Date.now() - startedAt) / 1_000) * pace.perSecond) + 1;
    while (!stopped && moving < pace.concurrent && next < sockets.length) {
      if (told >= due) {
        timer = setTimeout(pump, 1_000 / pace.perSecond);
        return;
      }
      const index = next++;
      const socket = sockets[index]!;
      if (socket.disconnected) continue;
      told++;
      moving++;
      let freed = false;
      const free = () => {
        if (freed) return;
        freed = true;
        clearTimeout(slot);
        moving--;
        if (timer === undefined) pump();
      };
      const slot = setTimeout(free, pace.slotTimeoutMs);
      slot.unref();
      socket.once('disconnect', free);
      tell(socket, index);
    }
  };
  pump();
  return {
    stop() {
      stopped = true;
      clearTimeout(timer);
    },
  };
}
