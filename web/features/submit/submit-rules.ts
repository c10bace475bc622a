/** What /submit does with pasted text (spec §5), as plain functions the page and the tests share. */
import type { DiscoveredStreamDto } from '../../../src/shared/api/index.ts';
import { guessPlatform, linksIn } from '../../../src/shared/streams/platform.ts';
import { normalizeStreamUrl, parseTwitchChannel, parseYouTube, thumbnailUrl } from '../../../src/shared/streams/url.ts';

/** Spec §5: recognised at once — YouTube watch/short/embed links, Twitch channels, .m3u8 and .mp4 addresses. */
export function isRecognised(url: string): boolean {
  if (parseYouTube(url) || parseTwitchChannel(url)) return true;
  const path = new URL(url).pathname.toLowerCase();
  return path.endsWith('.m3u8') || path.endsWith('.mp4');
}

export function recognisedStream(url: string): DiscoveredStreamDto {
  return { url, normalizedUrl: normalizeStreamUrl(url), platform: guessPlatform(url), title: null, thumbnail: thumbnailUrl(url), embedUrl: null };
}

/** Splits pasted text into links known at once and links to send to extraction. */
export function splitInput(text: string): { recognised: DiscoveredStreamDto[]; toExtract: string[] } {
  const links = linksIn(text);
  return {
    recognised: links.filter(isRecognised).map(recognisedStream),
    toExtract: links.filter((l) => !isRecognised(l)),
  };
}

/** Merges discovered streams, one per stream identity, keeping the first. */
export function mergeDiscovered(...lists: DiscoveredStreamDto[][]): DiscoveredStreamDto[] {
  const seen = new Set<string>();
  return lists.flat().filter((s) => (seen.has(s.normalizedUrl) ? false : (seen.add(s.normalizedUrl), true)));
}
