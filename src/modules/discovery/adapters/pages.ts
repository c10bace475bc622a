/**
 * EarthCam and any other site: the start page is read for players with the link extractor,
 * then the same site's pages it links to, one level deep, at most `max_pages` in all.
 * A page that fails is skipped (logged); only a start page that fails ends the run.
 */
import { SafeFetchError } from '../../../http/safe-fetch.ts';
import { PlatformFailure, platformRequest } from '../../platforms/request.ts';
import { sameSiteLinks, streamsInPage } from '../page-streams.ts';
import type { DiscoveryAdapter } from './adapter.ts';
import { DiscoveryFailure } from './adapter.ts';

export const pages: DiscoveryAdapter<'earthcam' | 'custom'> = async function* (source, ctx) {
  const start = source.url!;
  const queue = [start];
  const seen = new Set<string>();
  for (let i = 0; i < queue.length && seen.size < source.config.max_pages; i++) {
    const pageUrl = queue[i]!;
    if (seen.has(pageUrl)) continue;
    seen.add(pageUrl);
    let html: string;
    let finalUrl: string;
    try {
      const response = await platformRequest(ctx, 'The page', pageUrl, { accept: 'text/html,application/xhtml+xml,*/*;q=0.8', timeoutMs: 10_000 });
      if (response.status >= 400) throw new DiscoveryFailure(`The page answered HTTP ${response.status} (${pageUrl})`);
      html = response.body.toString('utf8');
      finalUrl = response.url;
    } catch (error) {
      if (i === 0) throw error;
      ctx.logger.info({ source: source.name, page: pageUrl, err: error instanceof SafeFetchError || error instanceof PlatformFailure ? error.message : error }, 'discovery: skipped a page');
      continue;
    }
    for (const stream of streamsInPage(html, finalUrl)) {
      yield { url: stream.url, title: stream.title, thumbnail: stream.thumbnail, hints: pageUrl };
    }
    if (i === 0) queue.push(...sameSiteLinks(html, finalUrl, source.config.max_pages * 3));
  }
};
