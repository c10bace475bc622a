/**
 * `npm run bench:registration`: how long a wall's registration takes to be answered — from its
 * `screen:register` to the answer in hand — on a server with approval off (every address is a
 * screen, as before issue 41) and on one with approval on, for a screen approved by its pairing
 * code (its credential looked up, its registration rewritten as the operator described it). Both
 * servers run side by side in one run and the samples alternate, so the machine's noise falls on
 * both alike. Every answer is checked (an approved screen must be answered as itself, never as a
 * pairing screen or a refusal), so a broken path cannot print a figure. Last line: one JSON object.
 */
import { io, type Socket } from 'socket.io-client';
import type { EnrolledDto, PairingAnswer } from '../src/shared/api/index.ts';
import type { Ack, RegistrationAnswer } from '../src/shared/events.ts';
import { benchArgs } from './args.ts';
import { BENCH_TOKEN, startServerProcess } from './server-process.ts';
import { percentile } from './stats.ts';

const { samples, screens } = benchArgs({ samples: 300, screens: 20 });

const open = await startServerProcess({ env: { SCREEN_APPROVAL: 'off' } });
const approving = await startServerProcess({ env: { SCREEN_APPROVAL: 'on', TRUST_PROXY: 'true' } });

async function json<T>(base: string, method: string, path: string, body: unknown, headers: Record<string, string> = {}): Promise<T> {
  const res = await fetch(`${base}/api${path}`, { method, headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

/** Pairs and approves `screens` walls (each from an address of its own: the per-address bound is 5). */
async function approvedCredentials(): Promise<string[]> {
  const credentials: string[] = [];
  for (let i = 0; i < screens; i++) {
    const asked = await json<PairingAnswer>(approving.base, 'POST', '/screens/pairings', { kind: 'wall', device: `bench-wall-${String(i).padStart(4, '0')}` }, { 'x-forwarded-for': `198.51.100.${i + 1}` });
    await json<EnrolledDto>(approving.base, 'POST', '/screens/pairings/approve', { code: asked.code, name: `Bench wall ${i + 1}`, kind: 'wall' }, { authorization: `Bearer ${BENCH_TOKEN}` });
    credentials.push(asked.credential);
  }
  return credentials;
}

function connect(base: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = io(base, { transports: ['websocket'], reconnection: false });
    socket.once('connect', () => resolve(socket));
    socket.once('connect_error', reject);
  });
}

/** One registration on a fresh connection: ms from the emit to the answer, after checking the answer. */
async function registerOnce(base: string, registration: Record<string, unknown>, approved: boolean): Promise<number> {
  const socket = await connect(base);
  try {
    const started = performance.now();
    const answer = await new Promise<Ack<RegistrationAnswer>>((resolve) => socket.emit('screen:register', registration, resolve));
    const took = performance.now() - started;
    if (!('data' in answer)) throw new Error(`registration refused: ${answer.error}`);
    if (answer.data.kind !== 'wall') throw new Error(`answered as ${answer.data.kind}, not as a wall`);
    if (approved !== (answer.data.enrolled !== undefined)) throw new Error(approved ? 'an approved screen was not answered as itself' : 'an open server answered an enrolment');
    if (!(took >= 0)) throw new Error(`a registration took ${took} ms`);
    return took;
  } finally {
    socket.close();
  }
}

let result: object | undefined;
try {
  const credentials = await approvedCredentials();
  const openMs: number[] = [];
  const approvedMs: number[] = [];
  const warmUp = 30;
  for (let i = 0; i < samples + warmUp; i++) {
    const device = `bench-wall-${String(i % screens).padStart(4, '0')}`;
    // Alternate which goes first, so neither always follows the other's work.
    const runs = [
      async () => {
        const ms = await registerOnce(open.base, { kind: 'wall', name: 'Bench wall', device }, false);
        if (i >= warmUp) openMs.push(ms);
      },
      async () => {
        const ms = await registerOnce(approving.base, { kind: 'wall', name: 'Bench wall', device, credential: credentials[i % screens] }, true);
        if (i >= warmUp) approvedMs.push(ms);
      },
    ];
    if (i % 2) runs.reverse();
    for (const run of runs) await run();
  }
  const figures = (list: number[]) => ({ p50_ms: Number(percentile(list, 50).toFixed(2)), p90_ms: Number(percentile(list, 90).toFixed(2)), p99_ms: Number(percentile(list, 99).toFixed(2)) });
  const before = figures(openMs);
  const after = figures(approvedMs);
  result = {
    samples,
    approved_screens: screens,
    approval_off: before,
    approved_screen: after,
    p50_difference_ms: Number((after.p50_ms - before.p50_ms).toFixed(2)),
  };
} finally {
  await Promise.all([open.stop(), approving.stop()]);
}
// Printed once the servers are down: what they log while stopping comes before it, never after.
console.log(JSON.stringify(result));
