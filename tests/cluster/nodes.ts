/**
 * Which node holds which screen, as the cluster-wide screen list (`GET /api/screens`) says: a
 * node's presence id, found by a probe wall connected to that node directly, and each wall's
 * node by its connection id (the one in use: a wall that moved has a new one).
 */
import { PARTIAL_HEADER } from '../../src/modules/screens/screens.routes.ts';
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

/**
 * Each wall's node id now (in the order of `walls`; `unlisted` for one the list does not hold).
 * Only a whole list counts: a node that did not answer the presence request in time (a busy one,
 * during a roll) is left out of the answer (`X-Partial-Result`), which would count its walls
 * nowhere, so the list is asked again; after `attempts` partial answers it throws, saying so.
 */
export async function nodesOfWalls(base: string, walls: readonly { client: Pick<ClusterWall['client'], 'socket'> }[], attempts = 10): Promise<string[]> {
  let last = '';
  for (let attempt = 0; attempt < attempts; attempt++) {
    const answer = await rest(base, 'GET', '/api/screens');
    if (answer.status === 200 && answer.headers[PARTIAL_HEADER.toLowerCase()] === undefined) {
      const byId = new Map((answer.body as Listed).map((s) => [s.id, s.node]));
      return walls.map((wall) => byId.get(wall.client.socket.id ?? '') ?? 'unlisted');
    }
    last = answer.status === 200 ? 'partial (a node did not answer in time)' : `${answer.status} ${answer.error ?? JSON.stringify(answer.body)}`;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`the screen list was not whole in ${attempts} tries: ${last}`);
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
