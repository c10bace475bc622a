/**
 * A node of a cluster stops within seconds, whatever it was doing: screens connected to it and
 * to its peer, discovery runs under way, and the Socket.IO Postgres adapter setting up its
 * LISTEN client. That last one is the delicate part: the adapter connects, LISTENs, and only
 * then keeps the client, and it releases only a client it keeps. Node B reaches the database
 * through a proxy that can hold B's LISTEN on the socket.io channel, so a close lands exactly
 * in that window — right after start, and while the client replacing a lost one is set up.
 */
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { startPlatformFixtures, type PlatformFixtures } from '../support/platforms.ts';
import { openScreen, type TestScreen } from '../support/screens.ts';

/** A hang detector, not a speed assertion: a close that works takes well under a second. */
const CLOSE_BOUND_MS = 15_000;

interface DatabaseProxy {
  url: string;
  /** Holds the next LISTEN on the socket.io channel (and what follows it on that connection). */
  holdListen(): void;
  /** Resolves once a LISTEN is being held. */
  listenHeld(): Promise<void>;
  /** Lets held LISTENs through and stops holding. */
  release(): void;
  /** Drops the connection that LISTENs, as a database restart would. */
  cutListen(): void;
  close(): Promise<void>;
}

const SOCKET_IO_LISTEN = Buffer.from('LISTEN "socket.io#');

async function startDatabaseProxy(databaseUrl: string): Promise<DatabaseProxy> {
  const target = new URL(databaseUrl);
  const links = new Set<{ client: net.Socket; upstream: net.Socket; listens: boolean }>();
  const held: (() => void)[] = [];
  let holding = false;
  let onHeld: (() => void) | undefined;

  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port), target.hostname);
    const link = { client, upstream, listens: false };
    links.add(link);
    const drop = () => {
      links.delete(link);
      client.destroy();
      upstream.destroy();
    };
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
    upstream.pipe(client);
    // The adapter writes its LISTEN as one simple-query message, so one chunk holds it.
    let queued: Buffer[] | undefined;
    client.on('data', (chunk: Buffer) => {
      if (chunk.includes(SOCKET_IO_LISTEN)) {
        link.listens = true;
        if (holding && !queued) {
          const waiting: Buffer[] = [];
          queued = waiting;
          held.push(() => {
            queued = undefined;
            for (const data of waiting) upstream.write(data);
          });
          onHeld?.();
        }
      }
      if (queued) queued.push(chunk);
      else upstream.write(chunk);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = new URL(databaseUrl);
  url.hostname = '127.0.0.1';
  url.port = String((server.address() as net.AddressInfo).port);

  return {
    url: url.toString(),
    holdListen: () => void (holding = true),
    listenHeld: () =>
      new Promise<void>((resolve) => {
        if (held.length > 0) return resolve();
        onHeld = () => ((onHeld = undefined), resolve());
      }),
    release() {
      holding = false;
      held.splice(0).forEach((letThrough) => letThrough());
    },
    cutListen() {
      for (const link of links) if (link.listens) link.upstream.destroy();
    },
    async close() {
      for (const { client, upstream } of links) {
        client.destroy();
        upstream.destroy();
      }
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

let fixtures: PlatformFixtures;
let nodeA: TestApp;
let proxy: DatabaseProxy;
const screens: TestScreen[] = [];

const appOptions = () => ({ platforms: fixtures.settings, fetchAllowHosts: ['127.0.0.1'] });

beforeAll(async () => {
  fixtures = await startPlatformFixtures();
  nodeA = await startTestApp({ hub: { cluster: true }, jobs: true, appOptions: appOptions() });
  proxy = await startDatabaseProxy(nodeA.db.url);
});
afterAll(async () => {
  screens.forEach((s) => s.close());
  proxy?.release();
  await nodeA?.close();
  await proxy?.close();
  await fixtures?.close();
});

/** Node B: a second node on A's database, through the proxy. */
const startNodeB = () => startTestApp({ hub: { cluster: true }, jobs: true, appOptions: appOptions(), database: { ...nodeA.db, url: proxy.url } });

async function closeWithin(node: TestApp, what: string): Promise<void> {
  let bound: NodeJS.Timeout | undefined;
  const outcome = await Promise.race([
    node.close().then(() => 'closed' as const),
    new Promise<'hung'>((resolve) => (bound = setTimeout(() => resolve('hung'), CLOSE_BOUND_MS))),
  ]).finally(() => clearTimeout(bound));
  expect(outcome, `node B did not close within ${CLOSE_BOUND_MS / 1000} s (${what})`).toBe('closed');
}

/** Screens on both nodes, registered and shown their state. */
async function connectScreens(nodeB: TestApp): Promise<void> {
  const opened = [
    openScreen(nodeB.baseUrl, { kind: 'wall', name: 'wall on B' }),
    openScreen(nodeB.baseUrl, { kind: 'kiosk', name: 'kiosk on B', position: 1 }),
    openScreen(nodeA.baseUrl, { kind: 'wall', name: 'wall on A' }),
  ];
  screens.push(...opened);
  await Promise.all(opened.map((s) => s.waitFor((state) => state !== null)));
}

let runs = 0;
/** A discovery run that stays busy: the slow playlist answers only when the fixtures close. */
async function startRun(node: TestApp): Promise<void> {
  const slowAsked = () => fixtures.requests.filter((r) => r === 'GET /slow/cams.m3u').length;
  const before = slowAsked();
  const source = await node.request<{ id: number }>('POST', '/api/discovery/sources', { name: `Slow ${++runs}`, platform: 'direct', url: `${fixtures.base}/slow/cams.m3u` });
  expect(source.status).toBe(201);
  expect((await node.request('POST', '/api/discovery?action=run', { sourceId: source.body.id })).status).toBe(200);
  await expect.poll(slowAsked, { timeout: 10_000 }).toBeGreaterThan(before);
}

describe('closing a node of a cluster', () => {
  it('finishes within seconds, cycle after cycle, with screens, running jobs and a LISTEN being set up', async () => {
    // node.close() has closed the adapter by the time it returns: a LISTEN let through after
    // that completes after the close, as a slow one would.
    const cycles: { name: string; run(name: string): Promise<void> }[] = [
      {
        name: 'right after start, its first LISTEN still on the way',
        async run(name) {
          proxy.holdListen();
          const nodeB = await startNodeB();
          await proxy.listenHeld();
          const closing = closeWithin(nodeB, name);
          proxy.release();
          await closing;
        },
      },
      {
        name: 'right after start',
        async run(name) {
          await closeWithin(await startNodeB(), name);
        },
      },
      {
        name: 'with screens and a running job',
        async run(name) {
          const nodeB = await startNodeB();
          await connectScreens(nodeB);
          await startRun(nodeB);
          await closeWithin(nodeB, name);
        },
      },
      {
        name: 'with screens, while the LISTEN replacing a lost one is set up',
        async run(name) {
          const nodeB = await startNodeB();
          await connectScreens(nodeB);
          proxy.holdListen();
          proxy.cutListen();
          await proxy.listenHeld(); // the adapter reconnects 1 to 3 s after losing its client
          const closing = closeWithin(nodeB, name);
          proxy.release();
          await closing;
        },
      },
    ];
    for (let round = 1; round <= 3; round++) {
      for (const { name, run } of cycles) await run(`round ${round}: ${name}`);
    }
  }, 240_000);
});
