/**
 * A TCP proxy on 127.0.0.1 that holds every byte for a fixed time in each direction: one
 * screen's own network, with its own one-way delays (uplink: screen → server, downlink: server →
 * screen). Order is kept (each chunk leaves at its arrival time plus the delay, and never before
 * the chunk ahead of it), so HTTP and WebSocket traffic pass through unchanged, only later.
 */
import net from 'node:net';

export interface DelayProxy {
  port: number;
  base: string;
  close(): Promise<void>;
}

/** Writes each chunk `delayMs` after it arrived, in arrival order. */
function delayedPipe(from: net.Socket, to: net.Socket, delayMs: number): void {
  let releaseAt = 0;
  from.on('data', (chunk: Buffer) => {
    releaseAt = Math.max(releaseAt, performance.now() + delayMs);
    setTimeout(() => {
      if (!to.destroyed) to.write(chunk);
    }, releaseAt - performance.now());
  });
  from.on('end', () => setTimeout(() => to.end(), Math.max(0, releaseAt - performance.now()) + 1));
  from.on('error', () => to.destroy());
}

export async function startDelayProxy(targetPort: number, delays: { upMs: number; downMs: number }): Promise<DelayProxy> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(targetPort, '127.0.0.1');
    for (const s of [client, upstream]) {
      s.setNoDelay(true);
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
    }
    delayedPipe(client, upstream, delays.upMs);
    delayedPipe(upstream, client, delays.downMs);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  return {
    port,
    base: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
