/**
 * One interface for every platform: `discover(source, ctx)` yields the live streams a source
 * holds. Adapters only read, and only through the safe fetcher; what to do with the finds
 * (deduplicate, add, queue for review) is the job's business.
 */
import { SafeFetchError, type SafeFetcher, type SafeRequest, type SafeResponse } from '../../../http/safe-fetch.ts';
import type { Logger } from '../../../logger.ts';
import type { SourceConfig } from '../../../shared/api/discovery.ts';
import type { DiscoveryPlatform } from '../../../shared/constants.ts';
import type { RequestHeaders } from '../../../shared/streams/request-headers.ts';

export interface PlatformSettings {
  youtube: { apiKey: string | undefined; baseUrl: string; oembedUrl: string };
  twitch: { clientId: string | undefined; clientSecret: string | undefined; apiBaseUrl: string; authBaseUrl: string };
  vimeo: { token: string | undefined; apiBaseUrl: string; oembedUrl: string };
}

export const DEFAULT_PLATFORM_SETTINGS: PlatformSettings = {
  youtube: { apiKey: undefined, baseUrl: 'https://www.googleapis.com', oembedUrl: 'https://www.youtube.com/oembed' },
  twitch: { clientId: undefined, clientSecret: undefined, apiBaseUrl: 'https://api.twitch.tv', authBaseUrl: 'https://id.twitch.tv' },
  vimeo: { token: undefined, apiBaseUrl: 'https://api.vimeo.com', oembedUrl: 'https://vimeo.com/api/oembed.json' },
};

/** A source as an adapter sees it: its config already validated for its platform. */
export interface SourceSpec<P extends DiscoveryPlatform = DiscoveryPlatform> {
  id: number;
  name: string;
  platform: P;
  url: string | null;
  config: SourceConfig<P>;
}

export interface DiscoveredStream {
  url: string;
  title: string | null;
  thumbnail: string | null;
  /** Words that help categorise it (a playlist's group title, a channel's name, tags). */
  hints?: string | undefined;
  /** Headers a player must send (a playlist's #EXTVLCOPT and the like). */
  headers?: RequestHeaders | undefined;
  /** A playlist entry's metadata, which the relevance rule reads. */
  meta?: { group?: string | null; tvgName?: string | null; tvgId?: string | null } | undefined;
}

export interface DiscoveryContext {
  fetcher: SafeFetcher;
  platforms: PlatformSettings;
  logger: Logger;
  /** Aborted when the job is cancelled or its claim is lost. */
  signal: AbortSignal;
  /** The run's cap on streams (the admin's run option), if any. */
  limit: number | undefined;
  /** Waits (rate-limit resets); tests may shorten it. */
  sleep(ms: number, signal: AbortSignal): Promise<void>;
  /** The longest any one request may take (tests shorten it to see timeouts). */
  timeoutMs?: number | undefined;
  /** A list-like source says how many entries it holds before it yields them (large playlists go to review). */
  listSize?: ((entries: number) => void) | undefined;
}

export type DiscoveryAdapter<P extends DiscoveryPlatform = DiscoveryPlatform> = (source: SourceSpec<P>, ctx: DiscoveryContext) => AsyncIterable<DiscoveredStream>;

/** A failure the admin reads on the source card: the job fails with this message, never retried. */
export class DiscoveryFailure extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'DiscoveryFailure';
  }
}

export const realSleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason as Error);
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(timer), reject(signal.reason as Error)), { once: true });
  });

/** A request through the safe fetcher; network failures become readable job errors naming the platform. */
/** What a platform request needs of its context (the quality analyzer asks platforms too). */
export type RequestContext = Pick<DiscoveryContext, 'fetcher' | 'signal' | 'timeoutMs'>;

export async function request(ctx: RequestContext, platform: string, url: string, init: SafeRequest = {}): Promise<SafeResponse> {
  if (ctx.signal.aborted) throw new DiscoveryFailure('The run was stopped');
  try {
    const timeoutMs = Math.min(init.timeoutMs ?? 15_000, ctx.timeoutMs ?? Infinity);
    return await ctx.fetcher.fetch(url, { accept: 'application/json', ...init, timeoutMs });
  } catch (error) {
    if (error instanceof SafeFetchError) {
      const what = error.reason === 'timeout' ? 'did not answer in time' : error.reason === 'blocked' ? 'is not an allowed address' : error.reason === 'too-large' ? 'sent an answer that is too large' : 'could not be reached';
      throw new DiscoveryFailure(`${platform} ${what} (${new URL(url).host})`, { cause: error });
    }
    throw error;
  }
}

/** The JSON body of an answer, or a readable failure when it is not JSON. */
export function json<T>(response: SafeResponse, platform: string): T {
  try {
    return JSON.parse(response.body.toString('utf8')) as T;
  } catch (error) {
    throw new DiscoveryFailure(`${platform} answered with something that is not JSON (HTTP ${response.status})`, { cause: error });
  }
}

/** Seconds to wait before a rate-limited request may be retried, from the reset header (unix seconds) or Retry-After. */
export function waitFromHeaders(headers: Headers, now = Date.now()): number {
  const reset = Number(headers.get('ratelimit-reset'));
  if (Number.isFinite(reset) && reset > 0) return Math.max(0, reset * 1000 - now);
  const retryAfter = Number(headers.get('retry-after'));
  return Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter * 1000 : 1000;
}
