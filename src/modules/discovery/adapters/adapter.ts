/**
 * One interface for every platform: `discover(source, ctx)` yields the live streams a source
 * holds. Adapters only read, through the platform clients (modules/platforms) or the safe
 * fetcher; what to do with the finds (triage, add, file for review) is the job's business.
 */
import type { SafeFetcher } from '../../../http/safe-fetch.ts';
import type { Logger } from '../../../logger.ts';
import type { SourceConfig } from '../../../shared/api/discovery.ts';
import type { DiscoveryPlatform } from '../../../shared/constants.ts';
import type { RequestHeaders } from '../../../shared/streams/request-headers.ts';
import { PlatformFailure } from '../../platforms/request.ts';
import type { PlatformSettings } from '../../platforms/settings.ts';

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

/** A failure the admin reads on the source card: the job fails with this message, never retried (platforms' own failures are of the same kind). */
export class DiscoveryFailure extends PlatformFailure {
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
