/**
 * One request to a platform, through the safe fetcher: network failures become sentences that
 * name the platform (what an admin reads on a job card or an analysis), and answers that are
 * not JSON say so.
 */
import { SafeFetchError, type SafeFetcher, type SafeRequest, type SafeResponse } from '../../http/safe-fetch.ts';

/** What a platform request needs: the fetcher, a signal to stop it, and an upper bound on its time. */
export interface RequestContext {
  fetcher: SafeFetcher;
  signal: AbortSignal;
  /** The longest any one request may take (tests shorten it to see timeouts). */
  timeoutMs?: number | undefined;
}

/** A platform said no, or could not be asked: the message is for the admin, as it is. */
export class PlatformFailure extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'PlatformFailure';
  }
}

export async function platformRequest(ctx: RequestContext, platform: string, url: string, init: SafeRequest = {}): Promise<SafeResponse> {
  if (ctx.signal.aborted) throw new PlatformFailure('The run was stopped');
  // A stop (the node shutting down hands the run back to the queue) does not wait for the answer;
  // the request itself ends at its timeout.
  let onAbort: (() => void) | undefined;
  const stopped = new Promise<never>((_, reject) => {
    onAbort = () => reject(new PlatformFailure('The run was stopped'));
    ctx.signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    const timeoutMs = Math.min(init.timeoutMs ?? 15_000, ctx.timeoutMs ?? Infinity);
    return await Promise.race([ctx.fetcher.fetch(url, { accept: 'application/json', ...init, timeoutMs }), stopped]);
  } catch (error) {
    if (error instanceof SafeFetchError) {
      const what = error.reason === 'timeout' ? 'did not answer in time' : error.reason === 'blocked' ? 'is not an allowed address' : error.reason === 'too-large' ? 'sent an answer that is too large' : 'could not be reached';
      throw new PlatformFailure(`${platform} ${what} (${new URL(url).host})`, { cause: error });
    }
    throw error;
  } finally {
    if (onAbort) ctx.signal.removeEventListener('abort', onAbort);
  }
}

/** The JSON body of an answer, or a readable failure when it is not JSON. */
export function readJson<T>(response: SafeResponse, platform: string): T {
  try {
    return JSON.parse(response.body.toString('utf8')) as T;
  } catch (error) {
    throw new PlatformFailure(`${platform} answered with something that is not JSON (HTTP ${response.status})`, { cause: error });
  }
}

/** The JSON body if there is one (a status may say enough when there is not). */
export function maybeJson<T>(response: SafeResponse): T | null {
  try {
    return JSON.parse(response.body.toString('utf8')) as T;
  } catch {
    return null;
  }
}

/** Seconds to wait before a rate-limited request may be retried, from the reset header (unix seconds) or Retry-After. */
export function waitFromHeaders(headers: Headers, now = Date.now()): number {
  const reset = Number(headers.get('ratelimit-reset'));
  if (Number.isFinite(reset) && reset > 0) return Math.max(0, reset * 1000 - now);
  const retryAfter = Number(headers.get('retry-after'));
  return Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter * 1000 : 1000;
}
