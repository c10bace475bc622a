/**
 * How SHUTDOWN_GRACE_SECONDS is spent: screens are told to move within a window that grows with
 * how many the node holds (the hub's), at most `spreadMs` — half the grace; the node answers (not
 * ready) while they move, for `screensMs` at most with other nodes to go to and `unreadyMs` alone;
 * requests and jobs finish by `workMs`; the rest (sockets, adapter, pools, the embedded database)
 * closes in what remains. At the default 20 s: told within 10 s, moved by 16 s, work done by 17 s.
 */
export function shutdownPlan(graceSeconds: number): { graceMs: number; spreadMs: number; unreadyMs: number; screensMs: number; workMs: number } {
  const graceMs = graceSeconds * 1000;
  const workMs = graceMs - Math.min(3_000, graceMs / 4);
  const spreadMs = Math.min(graceMs / 2, workMs - 1_000);
  const unreadyMs = Math.min(spreadMs + 1_000, workMs);
  return { graceMs, spreadMs, unreadyMs, screensMs: Math.max(unreadyMs, workMs - 1_000), workMs };
}
