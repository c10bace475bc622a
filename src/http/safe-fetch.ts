/**
 * The only way the server fetches a URL someone else chose (extraction now; discovery and
 * quality analysis later). It refuses anything but http(s), and every address it would
 * connect to is checked *when the connection is made* (inside the socket's DNS lookup, so a
 * name cannot resolve to a public address for a check and a private one for the connect).
 * Only global unicast addresses pass (the allow-list of address-policy.ts); a lookup with several
 * answers is refused if any one is not public. Literal-IP hosts (which
 * never reach the lookup) are checked directly — after WHATWG parsing, so `2130706433`,
 * `0x7f.1` and `127.1` are already `127.0.0.1`. Redirects are followed by hand (at most 3,
 * http(s) only, each hop checked again); the whole fetch has a time limit and the body a size
 * cap. FETCH_ALLOW_HOSTS (empty by default) lets tests reach fixture servers on 127.0.0.1.
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import type { LookupFunction } from 'node:net';
import os from 'node:os';
import ipaddr from 'ipaddr.js';
import { Agent, fetch, type Response } from 'undici';
import { isPublicAddress } from './address-policy.ts';

export { isPublicAddress } from './address-policy.ts';

export type SafeFetchFailure =
  /** The URL or an address it resolves to is not allowed (scheme, private address…). */
  | 'blocked'
  | 'timeout'
  | 'too-large'
  | 'too-many-redirects'
  /** DNS failure, refused, reset, TLS… */
  | 'unreachable';

export class SafeFetchError extends Error {
  readonly reason: SafeFetchFailure;
  constructor(reason: SafeFetchFailure, message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'SafeFetchError';
    this.reason = reason;
  }
}

export interface ResolvedAddress {
  address: string;
  family: number;
}

/** How host names become addresses (tests pass their own to play DNS tricks). */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export interface SafeFetchOptions {
  /** Host names or IP addresses exempt from the address check (FETCH_ALLOW_HOSTS). */
  allowHosts?: readonly string[];
  resolver?: Resolver;
  timeoutMs?: number;
  maxBytes?: number;
  maxRedirects?: number;
}

export interface SafeResponse {
  /** Where the body came from, after redirects. */
  url: string;
  status: number;
  contentType: string;
  /** Response headers (rate-limit resets, pagination links). */
  headers: Headers;
  body: Buffer;
}

export interface SafeRequest {
  accept?: string;
  /** GET unless told; a POST carries a form or JSON body (platform token endpoints). */
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  /** Larger bodies for playlists; never above what the caller reads. */
  maxBytes?: number;
  /** Keep the first `maxBytes` of a longer body instead of refusing it (a sample of a video file). */
  truncate?: boolean;
  timeoutMs?: number;
}

export interface SafeFetcher {
  fetch(url: string, init?: SafeRequest): Promise<SafeResponse>;
  /**
   * Whether a URL someone gave us may be stored or shown without fetching it (a submission, a
   * recognised media link, a source's address): http(s), no credentials, a literal address only
   * if public, and not a name of this server (`localhost`, this machine's name, `ownHosts` such
   * as the Host the request came in on). Names that resolve to private addresses are refused
   * when fetched.
   */
  allows(url: string, options?: { ownHosts?: readonly string[] }): boolean;
  close(): Promise<void>;
}

export const SAFE_FETCH_DEFAULTS = { timeoutMs: 5_000, maxBytes: 2 * 1024 * 1024, maxRedirects: 3 } as const;
const USER_AGENT = 'Mozilla/5.0 (compatible; NatureWall/1.0; stream link analysis)';

const systemResolver: Resolver = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

function blocked(message = 'URL is not allowed'): SafeFetchError {
  return new SafeFetchError('blocked', message);
}

/** A URL's host without IPv6 brackets, lower-case. */
function hostOf(url: URL): string {
  return url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
}

function checkUrl(url: URL, allow: ReadonlySet<string>): void {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw blocked();
  if (url.username || url.password) throw blocked(); // credentials are never sent on a visitor's behalf
  const host = hostOf(url);
  if (allow.has(host)) return;
  // Literal addresses never reach the lookup: they are judged here.
  if (ipaddr.isValid(host) && !isPublicAddress(host)) throw blocked();
}

/** Names that always mean this machine. */
function isLocalName(host: string): boolean {
  return host === 'localhost' || host.endsWith('.localhost') || host === 'localhost.localdomain' || host === 'ip6-localhost' || host === 'ip6-loopback';
}

function ownNames(extra: readonly string[]): Set<string> {
  const machine = os.hostname().toLowerCase();
  return new Set([machine, machine.split('.')[0]!, ...extra.map((h) => h.toLowerCase().replace(/^\[|\]$/g, ''))].filter(Boolean));
}

function safeLookup(resolver: Resolver, allow: ReadonlySet<string>): LookupFunction {
  return (hostname, options, callback) => {
    resolver(hostname).then(
      (addresses) => {
        if (addresses.length === 0) throw new SafeFetchError('unreachable', `No address for ${hostname}`);
        const exempt = allow.has(hostname.toLowerCase());
        if (!exempt && addresses.some((a) => !allow.has(a.address) && !isPublicAddress(a.address))) throw blocked();
        if (options.all) callback(null, addresses);
        else callback(null, addresses[0]!.address, addresses[0]!.family);
      },
      (error: unknown) => {
        throw new SafeFetchError('unreachable', `Could not resolve ${hostname}`, { cause: error });
      },
    ).catch((error: NodeJS.ErrnoException) => callback(error, '', 0));
  };
}

/** The SafeFetchError inside undici's "fetch failed", or a classification of what failed. */
function classify(error: unknown): SafeFetchError {
  for (let e: unknown = error, depth = 0; e && depth < 6; depth++) {
    if (e instanceof SafeFetchError) return e;
    const name = (e as { name?: string }).name;
    if (name === 'TimeoutError' || name === 'AbortError') return new SafeFetchError('timeout', 'The page took too long to answer');
    e = (e as { cause?: unknown }).cause;
  }
  return new SafeFetchError('unreachable', 'The page could not be reached', { cause: error });
}

async function readCapped(response: Response, maxBytes: number, truncate = false): Promise<Buffer> {
  const declared = Number(response.headers.get('content-length'));
  if (!truncate && Number.isFinite(declared) && declared > maxBytes) {
    await response.body?.cancel();
    throw new SafeFetchError('too-large', 'The page is too large');
  }
  const chunks: Buffer[] = [];
  let size = 0;
  if (!response.body) return Buffer.alloc(0);
  for await (const chunk of response.body) {
    size += chunk.byteLength;
    if (size > maxBytes) {
      if (!truncate) throw new SafeFetchError('too-large', 'The page is too large');
      chunks.push(Buffer.from(chunk).subarray(0, chunk.byteLength - (size - maxBytes)));
      await response.body.cancel().catch(() => undefined);
      break;
    }
    chunks.push(Buffer.from(chunk));
  }
  return Buffer.concat(chunks);
}

export function createSafeFetcher(options: SafeFetchOptions = {}): SafeFetcher {
  const allow = new Set((options.allowHosts ?? []).map((h) => h.trim().toLowerCase().replace(/^\[|\]$/g, '')).filter(Boolean));
  const { timeoutMs, maxBytes, maxRedirects } = { ...SAFE_FETCH_DEFAULTS, ...options };
  const agent = new Agent({
    connect: { lookup: safeLookup(options.resolver ?? systemResolver, allow), timeout: timeoutMs },
    connections: 16,
  });

  return {
    async fetch(input, init = {}) {
      let url: URL;
      try {
        url = new URL(input);
      } catch {
        throw blocked('Not a valid URL');
      }
      const signal = AbortSignal.timeout(init.timeoutMs ?? timeoutMs);
      try {
        for (let hop = 0; ; hop++) {
          checkUrl(url, allow);
          const response = await fetch(url, {
            dispatcher: agent,
            redirect: 'manual',
            signal,
            method: init.method ?? 'GET',
            ...(init.body === undefined ? {} : { body: init.body }),
            // A stream's own user-agent (a playlist that needs one) replaces ours.
            headers: { 'user-agent': USER_AGENT, ...init.headers, accept: init.accept ?? 'text/html,application/xhtml+xml,*/*;q=0.8' },
          });
          const location = response.headers.get('location');
          if (response.status >= 300 && response.status < 400 && location) {
            await response.body?.cancel();
            if (hop >= maxRedirects) throw new SafeFetchError('too-many-redirects', 'Too many redirects');
            url = new URL(location, url);
            continue;
          }
          return {
            url: url.href,
            status: response.status,
            contentType: response.headers.get('content-type') ?? '',
            headers: response.headers as unknown as Headers,
            body: await readCapped(response, init.maxBytes ?? maxBytes, init.truncate),
          };
        }
      } catch (error) {
        throw classify(error);
      }
    },
    allows(input, check = {}) {
      let url: URL;
      try {
        url = new URL(input);
      } catch {
        return false;
      }
      try {
        checkUrl(url, allow);
      } catch {
        return false;
      }
      const host = hostOf(url).replace(/\.$/, '');
      if (allow.has(host)) return true;
      return !isLocalName(host) && !ownNames(check.ownHosts ?? []).has(host);
    },
    close: () => agent.close(),
  };
}

/** FETCH_ALLOW_HOSTS: comma-separated host names or addresses (tests only; empty in production). */
export function parseAllowHosts(value: string | undefined): string[] {
  return (value ?? '').split(',').map((h) => h.trim()).filter(Boolean);
}
