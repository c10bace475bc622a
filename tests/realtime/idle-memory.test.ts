/**
 * What an idle screen costs the server: nothing of its connection's upgrade request (the headers,
 * raw and parsed) outlives the handshake, however the socket came to be a WebSocket.
 */
import type http from 'node:http';
import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { connectScreen, type ScreenClient } from '../../src/shared/screen-client.ts';
import { startTestApp, type TestApp } from '../support/app.ts';

v8.setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ hub: true });
});
afterAll(async () => app?.close());

async function until(condition: () => boolean | Promise<boolean>): Promise<void> {
  while (!(await condition())) await new Promise((r) => setTimeout(r, 10));
}

it('lets go of the upgrade requests of connected screens, which still leave cleanly', async () => {
  const upgrades: WeakRef<http.IncomingMessage>[] = [];
  const io = app.hub!.io;
  const watch = (req: http.IncomingMessage) => upgrades.push(new WeakRef(req));
  io.httpServer.on('upgrade', watch);

  // Half straight onto a WebSocket, half upgraded from long-polling (the browser's default).
  let registered = 0;
  const clients: ScreenClient[] = Array.from({ length: 10 }, (_, i) =>
    connectScreen({
      url: app.baseUrl,
      registration: { kind: 'wall', name: `idle ${i}` },
      onMessage: (message) => {
        if (message.type === 'state') registered++;
      },
      socketOptions: { forceNew: true, reconnection: false, ...(i % 2 === 0 ? { transports: ['websocket'] } : {}) },
    }),
  );
  try {
    await until(() => registered >= clients.length && clients.every((c) => c.socket.io.engine?.transport.name === 'websocket'));
    io.httpServer.off('upgrade', watch);
    expect(upgrades).toHaveLength(clients.length);

    await new Promise((r) => setImmediate(r));
    gc();
    expect(upgrades.filter((ref) => ref.deref() !== undefined)).toHaveLength(0);
  } finally {
    clients.forEach((c) => c.close());
  }
  // The server still hears each one leave (its presence goes).
  await until(async () => (await app.hub!.screens()).screens.length === 0);
});
