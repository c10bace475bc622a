/**
 * Link analysis for /submit, /debug and the review queue: a recognised link (YouTube, Twitch,
 * Vimeo, EarthCam, Skyline, a media file) is answered at once; an embed code is read for its
 * players; any other page is fetched through the safe fetcher and searched for players.
 */
import { invalid, unprocessable } from '../../domain/errors.ts';
import { SafeFetchError, type SafeFetcher } from '../../http/safe-fetch.ts';
import type { DiscoveredStreamDto } from '../../shared/api/discovery.ts';
import { ANALYZE_FAILED, INVALID_URL, NOT_ALLOWED } from '../../shared/constants.ts';
import { looksLikeEmbedCode } from '../../shared/streams/platform.ts';
import { detectFormat, toAbsoluteUrl } from '../../shared/streams/url.ts';
import { streamsInPage, toDiscovered } from './page-streams.ts';


/**
 * `ownHosts`: the names this server answered the request on — a link to the server itself is
 * refused like a private address (an admin previewing it would load it in their own browser),
 * and players found in a page or an embed code that point at such addresses are left out.
 */
export async function extractStreams(fetcher: SafeFetcher, input: string, ownHosts: readonly string[] = []): Promise<DiscoveredStreamDto[]> {
  const allowed = (streams: DiscoveredStreamDto[]) => streams.filter((s) => fetcher.allows(s.url, { ownHosts }));
  if (looksLikeEmbedCode(input)) return allowed(streamsInPage(input, 'https://embed.invalid/'));
  const url = toAbsoluteUrl(input);
  if (!url) throw invalid(`url: ${INVALID_URL}`);
  if (!fetcher.allows(url.href, { ownHosts })) throw invalid(NOT_ALLOWED);
  if (detectFormat(url.href) !== 'unknown') return toDiscovered([{ url: url.href }]);
  try {
    const page = await fetcher.fetch(url.href);
    if (page.status >= 400) throw unprocessable(ANALYZE_FAILED);
    return allowed(streamsInPage(page.body.toString('utf8'), page.url));
  } catch (error) {
    if (error instanceof SafeFetchError) throw error.reason === 'blocked' ? invalid(NOT_ALLOWED) : unprocessable(ANALYZE_FAILED);
    throw error;
  }
}
