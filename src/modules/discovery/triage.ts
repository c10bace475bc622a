/**
 * Where one find of a discovery run goes: the pool, the review queue, or nowhere (with the
 * reason the job counts). A plain function of the find and the source's policy, table-tested
 * in tests/unit/triage.test.ts:
 *
 * 1. An address that is not http(s) (rtmp, rtsp, mmsh, udp…) is skipped as `non-http`; one
 *    that does not parse, or is too long, as `invalid`. (Duplicates are the run's to count: it
 *    sees every find.)
 * 2. A find that does not look like a nature cam (relevance.ts) goes to review, or is skipped
 *    as `not-relevant`, as the source chooses — unless the source trusts every entry.
 * 3. The rest go where the source delivers; a large playlist (over LARGE_PLAYLIST entries) to
 *    review, unless the source says otherwise.
 * 4. A find that needs request headers a browser cannot send keeps them, and is added
 *    inactive with the reason (the pool's business: intake.ts).
 */
import { LARGE_PLAYLIST, LIMITS, type Category, type Delivery, type IrrelevantAction, type SkipReason } from '../../shared/constants.ts';
import { cleanRequestHeaders, type RequestHeaders } from '../../shared/streams/request-headers.ts';
import { normalizeStreamUrl, parseHttpUrl } from '../../shared/streams/url.ts';
import type { DiscoveredStream } from './adapters/adapter.ts';
import { assessRelevance } from './relevance.ts';

export interface TriagePolicy {
  deliver: Delivery;
  /** Every find counts as a nature cam (a curated list). */
  trustAll: boolean;
  irrelevant: IrrelevantAction;
  /** The source searches live streams (YouTube, Twitch, Vimeo live events). */
  livePlatform: boolean;
  /** The source's fixed category, if it has one. */
  category: Category | undefined;
  /** Large playlists go to review (a playlist source's `review_large`). */
  reviewLarge: boolean;
}

/** A find ready to store. */
export interface Find extends Omit<DiscoveredStream, 'headers'> {
  normalizedUrl: string;
  category: Category;
  /** Null when it needs none. */
  headers: RequestHeaders | null;
}

export type Verdict = { to: 'skip'; reason: SkipReason } | { to: 'pool' | 'review'; find: Find };

/** Whether a list of this many entries goes to review although its source delivers to the pool. */
export function isLargeList(entries: number): boolean {
  return entries > LARGE_PLAYLIST;
}

export function triage(stream: DiscoveredStream, policy: TriagePolicy, listSize: number | null): Verdict {
  const text = stream.url.trim();
  if (/^[a-z][a-z0-9+.-]*:/i.test(text) && !/^https?:/i.test(text)) return { to: 'skip', reason: 'non-http' };
  const url = parseHttpUrl(text);
  if (!url || url.href.length > LIMITS.url) return { to: 'skip', reason: 'invalid' };
  const relevance = assessRelevance({
    name: stream.title,
    group: stream.meta?.group ?? null,
    tvgName: stream.meta?.tvgName ?? null,
    tvgId: stream.meta?.tvgId ?? null,
    url: url.href,
    livePlatform: policy.livePlatform,
  });
  const find: Find = {
    ...stream,
    url: url.href,
    normalizedUrl: normalizeStreamUrl(url.href),
    category: policy.category ?? relevance.category,
    headers: cleanRequestHeaders(stream.headers),
  };
  if (!policy.trustAll && !relevance.relevant) return policy.irrelevant === 'skip' ? { to: 'skip', reason: 'not-relevant' } : { to: 'review', find };
  const large = policy.reviewLarge && listSize !== null && isLargeList(listSize);
  return { to: policy.deliver === 'review' || large ? 'review' : 'pool', find };
}
