/**
 * Which node holds which screen, as the cluster-wide screen list (`GET /api/screens`) says: a
 * node's presence id, found by a probe wall connected to that node directly, and each wall's
 * node by its connection id (the one in use: a wall that moved has a new one).
 */
import { openScreen } from '../support/screens.ts';
import { rest } from './rest-traffic.ts';
import { until, type ClusterWall } from './walls.ts';

type Listed = { id: string; node: string }[];

/** The presence id of the node at `nodeBase` (a node's own address, not the balancer's). */
export async function nodeIdOf(nodeBase: string): Promise<string> {
  const probe = openScreen(nodeBase, { kind: 'wall', name: 'probe' });
  try {
    await probe.waitFor((s) => s !== null, 30_000);
    let id: string | undefined;
    await until(async () => {
      const list = (await rest(nodeBase, 'GET', '/api/screens')).body as Listed;
      id = list.find((s) => s.id === probe.client.socket.id)?.node;
      return id !== undefined;
    }, 30_000, 'the probe listed');
    return id!;
  } finally {
    probe.close();
  }
}

/** Each wall's node id now (in the order of `walls`; `unlisted` for one the list does not hold). */
export async function nodesOfWalls(base: string, walls: readonly { client: Pick<ClusterWall['client'], 'socket'> }[]): Promise<string[]> {
  const list = (await rest(base, 'GET', '/api/screens')).body as Listed;
  const byId = new Map(list.map((s) => [s.id, s.node]));
  return walls.map((wall) => byId.get(wall.client.socket.id ?? '') ?? 'unlisted');
}

/** How many of `walls` each of `nodeIds` holds, in that order. */
export function countsOn(placed: readonly string[], nodeIds: readonly string[]): number[] {
  return nodeIds.map((id) => placed.filter((node) => node === id).length);
}

/** The largest distance of a count from the mean, as a fraction of the mean (0: perfectly even). */
export function spreadFromMean(counts: readonly number[]): number {
  const mean = counts.reduce((a, b) => a + b, 0) / counts.length;
  return mean === 0 ? 0 : Math.max(...counts.map((c) => Math.abs(c - mean))) / mean;
}
