/**
 * SSRF: every address the server must never reach is refused before any connection is made
 * to it — the fixture that would answer (127.0.0.1) records no hit. A second fixture on
 * 127.0.0.2, made "public" for this test through the allow-list, stands in for a public host.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSafeFetcher, isPublicAddress, SafeFetchError, type ResolvedAddress, type SafeFetchFailure } from '../../src/http/safe-fetch.ts';

interface Fixture {
  hits: string[];
  server: http.Server;
}

function fixture(host: string, port: number, handler: (req: http.IncomingMessage, res: http.ServerResponse) => void): Promise<Fixture> {
  const hits: string[] = [];
  const server = http.createServer((req, res) => {
    hits.push(req.url ?? '');
    handler(req, res);
  });
  return new Promise((resolve) => server.listen(port, host, () => resolve({ hits, server })));
}

let port: number;
let victim: Fixture; // 127.0.0.1: must never be reached
let outside: Fixture; // 127.0.0.2: plays a public site
const v4 = (address: string): ResolvedAddress => ({ address, family: 4 });
let rebindCalls = 0;
const dns: Record<string, () => ResolvedAddress[]> = {
  'loopback.test': () => [v4('127.0.0.1')],
  'mixed.test': () => [v4('93.184.216.34'), v4('127.0.0.1')],
  'outside.test': () => [v4('127.0.0.2')],
  // DNS rebinding: a public answer first, then the internal one.
  'rebind.test': () => [v4(rebindCalls++ === 0 ? '127.0.0.2' : '127.0.0.1')],
};
const fetcher = createSafeFetcher({
  allowHosts: ['127.0.0.2'],
  resolver: async (hostname) => {
    const answer = dns[hostname];
    if (!answer) throw Object.assign(new Error(`ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return answer();
  },
  timeoutMs: 1_500,
});

beforeAll(async () => {
  victim = await fixture('127.0.0.1', 0, (_req, res) => res.end('internal secret'));
  port = (victim.server.address() as AddressInfo).port;
  outside = await fixture('127.0.0.2', port, (req, res) => {
    if (req.url === '/to-victim') return res.writeHead(302, { location: `http://127.0.0.1:${port}/` }).end();
    if (req.url === '/to-file') return res.writeHead(302, { location: 'file:///etc/passwd' }).end();
    if (req.url?.startsWith('/loop')) return res.writeHead(302, { location: `/loop${Number(req.url.slice(5) || 0) + 1}` }).end();
    if (req.url === '/huge') return res.end(Buffer.alloc(3 * 1024 * 1024, 'a'));
    if (req.url === '/huge-chunked') {
      res.writeHead(200, { 'content-type': 'text/html' });
      for (let i = 0; i < 30; i++) res.write(Buffer.alloc(100 * 1024, 'b'));
      return res.end();
    }
    if (req.url === '/silent') return; // never answers
    res.end('<html>public page</html>');
  });
});
afterAll(async () => {
  await fetcher.close();
  outside.server.closeAllConnections();
  for (const f of [victim, outside]) await new Promise((r) => f.server.close(r));
});

async function failure(url: string): Promise<SafeFetchFailure> {
  try {
    await fetcher.fetch(url);
  } catch (error) {
    if (error instanceof SafeFetchError) return error.reason;
    throw error;
  }
  throw new Error(`${url} was fetched`);
}

describe('refused before any connection', () => {
  const cases = (p: () => number) => [
    ['loopback', `http://127.0.0.1:${p()}/`],
    ['short loopback', `http://127.1:${p()}/`],
    ['decimal loopback', `http://2130706433:${p()}/`],
    ['hex loopback', `http://0x7f000001:${p()}/`],
    ['octal loopback', `http://017700000001:${p()}/`],
    ['unspecified (reaches localhost on Linux)', `http://0.0.0.0:${p()}/`],
    ['IPv6 loopback', `http://[::1]:${p()}/`],
    ['IPv4-mapped IPv6 loopback', `http://[::ffff:127.0.0.1]:${p()}/`],
    ['IPv4-compatible IPv6 loopback', `http://[::127.0.0.1]:${p()}/`],
    ['IPv4-compatible IPv6 metadata', 'http://[::169.254.169.254]/latest/meta-data'],
    ['IPv4-compatible IPv6 private', 'http://[::10.0.0.1]/'],
    ['NAT64 of loopback', `http://[64:ff9b::127.0.0.1]:${p()}/`],
    ['cloud metadata', 'http://169.254.169.254/latest/meta-data'],
    ['private 10/8', 'http://10.0.0.1/'],
    ['private 172.16/12', 'http://172.16.0.1/'],
    ['private 192.168/16', 'http://192.168.1.1/'],
    ['carrier-grade NAT', 'http://100.64.0.1/'],
    ['IPv6 link-local', 'http://[fe80::1]/'],
    ['multicast', 'http://224.0.0.1/'],
    ['a name that resolves to loopback', `http://loopback.test:${p()}/`],
    ['a name with a public and a loopback answer', `http://mixed.test:${p()}/`],
    ['a public page redirecting to loopback', `http://outside.test:${p()}/to-victim`],
    ['a public page redirecting to file:', `http://outside.test:${p()}/to-file`],
    ['file:', 'file:///etc/passwd'],
    ['gopher:', `gopher://127.0.0.1:${p()}/`],
    ['ftp:', 'ftp://example.org/'],
    ['credentials in the URL', `http://user:pass@outside.test:${p()}/`],
  ];
  it.each(cases(() => 0).map(([rule], i) => [rule, i] as const))('%s', async (_rule, index) => {
    const url = cases(() => port)[index]![1]!;
    expect(await failure(url)).toBe('blocked');
    expect(victim.hits).toEqual([]);
  });
});

describe('DNS rebinding', () => {
  it('checks the address the connection uses, in the same lookup', async () => {
    rebindCalls = 0;
    const first = await fetcher.fetch(`http://rebind.test:${port}/`);
    expect(first.body.toString()).toBe('<html>public page</html>');
    expect(rebindCalls).toBe(1); // one resolution per connection: no separate "check" lookup
    // A new connection (a fresh pool: keep-alive would reuse the checked one) resolves again.
    const fresh = createSafeFetcher({ allowHosts: ['127.0.0.2'], resolver: async (h) => dns[h]!() });
    try {
      expect(await fresh.fetch(`http://rebind.test:${port}/`).catch((e: SafeFetchError) => e.reason)).toBe('blocked');
    } finally {
      await fresh.close();
    }
    expect(victim.hits).toEqual([]);
  });
});

describe('limits', () => {
  const limited = () => createSafeFetcher({ allowHosts: ['127.0.0.2'], resolver: async (h) => dns[h]!(), timeoutMs: 1_000 });

  it.each([
    ['a body over the cap (declared)', '/huge', 'too-large'],
    ['a body over the cap (streamed)', '/huge-chunked', 'too-large'],
    ['a server that never answers', '/silent', 'timeout'],
    ['more than 3 redirects', '/loop', 'too-many-redirects'],
  ])('%s', async (_rule, path, reason) => {
    const f = limited();
    try {
      expect(await f.fetch(`http://outside.test:${port}${path}`).catch((e: SafeFetchError) => e.reason)).toBe(reason);
    } finally {
      await f.close();
    }
  });

  it('follows up to 3 redirects within public hosts', async () => {
    const f = limited();
    try {
      await expect(f.fetch(`http://outside.test:${port}/loop2`)).rejects.toMatchObject({ reason: 'too-many-redirects' });
      const ok = await f.fetch(`http://outside.test:${port}/`);
      expect(ok.status).toBe(200);
      expect(ok.url).toBe(`http://outside.test:${port}/`);
    } finally {
      await f.close();
    }
  });
});

describe('isPublicAddress', () => {
  it.each([
    ['93.184.216.34', true],
    ['2606:2800:220:1:248:1893:25c8:1946', true],
    ['127.0.0.1', false],
    ['::ffff:10.0.0.1', false],
    ['64:ff9b::7f00:1', false], // NAT64 of loopback
    ['2002:7f00:1::', false], // 6to4
    ['2001::1', false], // Teredo
    ['fc00::1', false], // unique local
    ['255.255.255.255', false],
    ['not an address', false],
  ])('%s → %s', (address, expected) => {
    expect(isPublicAddress(address)).toBe(expected);
  });
});
