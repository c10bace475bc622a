/**
 * `npm run bench:db-outage -- --walls 200 --outage 30`: the operator's episode of issue 8.
 * Two server nodes on one PostgreSQL (DATABASE_URL, a cluster this script owns), N walls split
 * across them, a writer creating a stream every 200 ms on alternating nodes. PostgreSQL is
 * stopped for `--outage` seconds and started again. Printed: process exits, 500s, 503s, wall
 * disconnects, seconds from PostgreSQL's return until each node accepts writes again, whether
 * a default-scene change then reaches every wall through either node, and acknowledged
 * writes lost. The last line is one JSON object.
 */
import type { WallState } from '../src/shared/events.ts';
import { openScreen, type TestScreen } from '../tests/support/screens.ts';
import { callNode, eventually, startNode, startOwnedPostgres } from '../tests/faults/support.ts';
import { benchArgs } from './args.ts';

const { walls: WALLS, outage: OUTAGE_S } = benchArgs({ walls: 200, outage: 30 });
const log = (...parts: unknown[]) => console.error('[db-outage]', ...parts);

const pg = await startOwnedPostgres();
const nodes = [await startNode({ DATABASE_URL: pg.url, LOG_LEVEL: 'warn' }), await startNode({ DATABASE_URL: pg.url, LOG_LEVEL: 'warn' })];
const screens: TestScreen[] = [];
let disconnects = 0;

interface Answer {
  node: number;
  at: number;
  status: number;
  id?: number;
}

const call = (node: number, method: string, path: string, body?: unknown) => callNode(nodes[node]!.base, method, path, body);

try {
  for (let i = 0; i < WALLS; i++) screens.push(openScreen(nodes[i % 2]!.base, { kind: 'wall', name: `wall ${i}` }));
  await Promise.all(screens.map((s) => s.waitFor((state) => state !== null, 60_000)));
  for (const s of screens) s.client.socket.on('disconnect', () => disconnects++);
  log(`${WALLS} walls registered on two nodes`);

  const answers: Answer[] = [];
  let writing = true;
  let seq = 0;
  const writer = (async () => {
    while (writing) {
      const n = seq++;
      const node = n % 2;
      void call(node, 'POST', '/api/streams', { name: `Outage cam ${n}`, url: `https://example.org/bench-outage-${n}.m3u8`, category: 'ocean' }).then((r) =>
        answers.push({ node, at: performance.now(), status: r.status, ...(r.body.id ? { id: r.body.id } : {}) }),
      );
      await new Promise((r) => setTimeout(r, 200));
    }
  })();

  await new Promise((r) => setTimeout(r, 2_000));
  log('stopping PostgreSQL');
  await pg.stop();
  await new Promise((r) => setTimeout(r, OUTAGE_S * 1000));
  const exitsDuring = nodes.filter((n) => n.exitCode() !== null).length;
  log('starting PostgreSQL');
  await pg.start();
  const backAt = performance.now();
  await eventually('writes accepted by both nodes', () => [0, 1].every((n) => answers.some((a) => a.node === n && a.at > backAt && a.status === 201)), 60_000, 50);
  const recoverySeconds = [0, 1].map((n) => Math.round((answers.find((a) => a.node === n && a.at > backAt && a.status === 201)!.at - backAt) / 100) / 10);
  writing = false;
  await writer;
  await new Promise((r) => setTimeout(r, 1_000)); // the last answers

  const acknowledged = answers.filter((a) => a.status === 201).map((a) => a.id!);
  let lost = 0;
  for (const id of acknowledged) if ((await call(id % 2, 'GET', `/api/streams/${id}`)).status !== 200) lost++;

  const reached: number[] = [];
  for (const via of [0, 1]) {
    const scene = await call(via, 'POST', '/api/scenes', { name: `After the outage via ${via}`, selection_algorithm: 'manual', stream_ids: [acknowledged.at(-1 - via)] });
    await call(via, 'PUT', '/api/config/default-scene', { scene_id: scene.body.id });
    const deadline = Date.now() + 15_000;
    const count = () => screens.filter((s) => (s.state as WallState | null)?.scene?.id === scene.body.id).length;
    while (count() < WALLS && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    reached.push(count());
  }

  const result = {
    benchmark: 'db-outage',
    walls: WALLS,
    outageSeconds: OUTAGE_S,
    processExits: exitsDuring + nodes.filter((n) => n.exitCode() !== null).length,
    status500: answers.filter((a) => a.status >= 500 && a.status !== 503).length,
    status503: answers.filter((a) => a.status === 503).length,
    unanswered: answers.filter((a) => a.status === 0).length,
    writesAcknowledged: acknowledged.length,
    acknowledgedWritesLost: lost,
    wallDisconnects: disconnects,
    secondsUntilWritesAfterReturn: recoverySeconds,
    wallsReachedAfterChangeViaNode: reached,
  };
  log(result);
  console.log(JSON.stringify(result));
} finally {
  screens.forEach((s) => s.close());
  await Promise.all(nodes.map((n) => n.stop()));
  await pg.destroy();
}
