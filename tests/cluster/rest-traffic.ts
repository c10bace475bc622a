/**
 * REST traffic through the load balancer from many loopback source addresses (so nginx's
 * address hash sends it to every node): one request at a time per loop, each answer recorded
 * with its status — 0 when no answer came (connection reset, timeout).
 */
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { FAULT_TOKEN } from '../faults/support.ts';
import { loopbackAddress } from './walls.ts';

export interface RestAnswer {
  method: string;
  path: string;
  /** performance.now() when the request started and when it was answered. */
  startedAt: number;
  at: number;
  status: number;
  body: unknown;
  /** The answer's headers (none when no answer came). */
  headers: http.IncomingHttpHeaders;
  error?: string;
}

/** One request as an admin (ADMIN_API_TOKEN of tests/faults/support.ts) from `localAddress`; never throws. */
export function rest(base: string, method: string, path: string, body?: unknown, localAddress = '127.0.0.1', token = FAULT_TOKEN): Promise<RestAnswer> {
  const startedAt = performance.now();
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve) => {
    const done = (status: number, text: string, error?: string, headers: http.IncomingHttpHeaders = {}) => {
      let parsed: unknown = text;
      try {
        parsed = text ? JSON.parse(text) : null;
      } catch {
        // not JSON (an nginx error page): kept as text
      }
      resolve({ method, path, startedAt, at: performance.now(), status, body: parsed, headers, ...(error ? { error } : {}) });
    };
    const req = http.request(
      `${base}${path}`,
      {
        method,
        localAddress,
        agent: false,
        timeout: 15_000,
        headers: { authorization: `Bearer ${token}`, ...(payload ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } : {}) },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => done(res.statusCode ?? 0, text, undefined, res.headers));
        res.on('error', (err) => done(0, text, String(err), res.headers));
      },
    );
    req.on('timeout', () => req.destroy(new Error('timed out')));
    req.on('error', (err) => done(0, '', String(err)));
    req.end(payload);
  });
}

export interface Loop {
  answers: RestAnswer[];
  /** Stops after the request under way has been answered. */
  stop(): Promise<void>;
}

/** Calls `next(n)` for the n-th request (source address `firstAddress + n` of 253) every `everyMs` until stopped. */
export function restLoop(base: string, everyMs: number, next: (n: number) => { method: string; path: string; body?: unknown }, firstAddress = 0): Loop {
  const answers: RestAnswer[] = [];
  let running = true;
  const done = (async () => {
    for (let n = 0; running; n++) {
      const { method, path, body } = next(n);
      answers.push(await rest(base, method, path, body, loopbackAddress(firstAddress + n)));
      if (running) await new Promise((r) => setTimeout(r, everyMs));
    }
  })();
  return {
    answers,
    async stop() {
      running = false;
      await done;
    },
  };
}

/** Answers that were not 2xx, one line each, for an assertion's message. */
export function failed(answers: readonly RestAnswer[]): string[] {
  return answers
    .filter((a) => a.status < 200 || a.status > 299)
    .map((a) => `${a.method} ${a.path} → ${a.status} ${a.error ?? JSON.stringify(a.body).slice(0, 200)}`);
}
