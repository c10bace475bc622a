/**
 * Finding the live players in a web page, with a real HTML parser (htmlparser2): platform
 * iframes (YouTube, Twitch, Vimeo, EarthCam, SkylineWebcams), `og:video` / `twitter:player`,
 * JSON-LD `VideoObject`s, `<video>`/`<source>` tags, and `.m3u8`/`.mp4` addresses anywhere in
 * the markup or inline scripts. The page is only read: nothing of it is stored or rendered.
 */
import type { Element } from 'domhandler';
import { findAll, getAttributeValue, textContent } from 'domutils';
import { parseDocument } from 'htmlparser2';
import type { DiscoveredStreamDto } from '../../shared/api/discovery.ts';
import { guessPlatform } from '../../shared/streams/platform.ts';
import {
  detectFormat,
  normalizeStreamUrl,
  parseHttpUrl,
  parseTwitchChannel,
  parseVimeo,
  parseYouTube,
  thumbnailUrl,
  vimeoEmbedUrl,
  youtubeEmbedUrl,
} from '../../shared/streams/url.ts';

/** More than this many candidates from one page is noise, not a set of cameras. */
export const MAX_STREAMS_PER_PAGE = 20;
const MEDIA_IN_TEXT = /https?:\\?\/\\?\/[^\s"'<>`]+?\.(?:m3u8|mp4)(?:\?[^\s"'<>`\\]*)?/gi;

interface Candidate {
  url: string;
  title?: string | null | undefined;
  thumbnail?: string | null | undefined;
}

function absolute(raw: string | undefined, base: string): string | null {
  if (!raw) return null;
  const text = raw.trim().replace(/\\\//g, '/');
  try {
    return parseHttpUrl(new URL(text.startsWith('//') ? `https:${text}` : text, base).href)?.href ?? null;
  } catch {
    return null;
  }
}

/** The watchable address behind a player URL (a YouTube embed becomes its watch link). */
function canonical(url: string): string {
  const youtube = parseYouTube(url);
  if (youtube?.kind === 'video') return `https://www.youtube.com/watch?v=${youtube.id}`;
  if (youtube?.kind === 'channel') return `https://www.youtube.com/channel/${youtube.channelId}/live`;
  const twitch = parseTwitchChannel(url);
  if (twitch) return `https://www.twitch.tv/${twitch}`;
  const vimeo = parseVimeo(url);
  if (vimeo) return vimeo.startsWith('event:') ? `https://vimeo.com/event/${vimeo.slice(6)}` : `https://vimeo.com/${vimeo}`;
  return url;
}

/** Only what can play: a known platform or a direct media file. */
function isPlayable(url: string): boolean {
  return detectFormat(url) !== 'unknown';
}

function embedUrlOf(url: string, original: string): string | null {
  const youtube = parseYouTube(url);
  if (youtube) return youtubeEmbedUrl(youtube);
  const vimeo = parseVimeo(url);
  if (vimeo) return vimeoEmbedUrl(vimeo);
  if (parseTwitchChannel(url)) return null; // the player adds the parent host it runs on
  const format = detectFormat(original);
  return format === 'earthcam' || format === 'skylinewebcams' ? original : null;
}

function jsonLdVideos(value: unknown, out: Record<string, unknown>[]): void {
  if (Array.isArray(value)) return value.forEach((v) => jsonLdVideos(v, out));
  if (!value || typeof value !== 'object') return;
  const record = value as Record<string, unknown>;
  const type = record['@type'];
  if (type === 'VideoObject' || (Array.isArray(type) && type.includes('VideoObject'))) out.push(record);
  if (record['@graph']) jsonLdVideos(record['@graph'], out);
}

const text = (v: unknown): string | null => (typeof v === 'string' && v.trim() ? v.trim().slice(0, 200) : null);
const firstText = (v: unknown): string | null => text(Array.isArray(v) ? v[0] : v);

export function streamsInPage(html: string, pageUrl: string): DiscoveredStreamDto[] {
  const doc = parseDocument(html, { decodeEntities: true });
  const elements = (name: string) => findAll((e: Element) => e.name === name, doc.children);
  const meta = (key: string) =>
    elements('meta').find((m) => getAttributeValue(m, 'property') === key || getAttributeValue(m, 'name') === key);
  const metaContent = (key: string) => {
    const tag = meta(key);
    return tag ? getAttributeValue(tag, 'content') : undefined;
  };
  const pageTitle = text(metaContent('og:title')) ?? text(textContent(elements('title')[0] ?? []));
  const pageImage = absolute(metaContent('og:image'), pageUrl);
  const candidates: Candidate[] = [];

  for (const frame of elements('iframe')) {
    const src = absolute(getAttributeValue(frame, 'src') ?? getAttributeValue(frame, 'data-src'), pageUrl);
    if (src) candidates.push({ url: src, title: text(getAttributeValue(frame, 'title')) ?? pageTitle });
  }
  for (const key of ['og:video', 'og:video:url', 'og:video:secure_url', 'twitter:player', 'twitter:player:stream']) {
    const src = absolute(metaContent(key), pageUrl);
    if (src) candidates.push({ url: src, title: pageTitle, thumbnail: pageImage });
  }
  for (const script of elements('script')) {
    const type = getAttributeValue(script, 'type') ?? '';
    const body = textContent(script);
    if (type === 'application/ld+json') {
      try {
        const videos: Record<string, unknown>[] = [];
        jsonLdVideos(JSON.parse(body), videos);
        for (const video of videos) {
          const src = absolute(text(video.embedUrl) ?? text(video.contentUrl) ?? undefined, pageUrl);
          if (src) candidates.push({ url: src, title: text(video.name) ?? pageTitle, thumbnail: absolute(firstText(video.thumbnailUrl) ?? undefined, pageUrl) });
        }
      } catch {
        // malformed JSON-LD: ignore it, as browsers do
      }
    } else {
      for (const match of body.matchAll(MEDIA_IN_TEXT)) {
        const src = absolute(match[0], pageUrl);
        if (src) candidates.push({ url: src, title: pageTitle, thumbnail: pageImage });
      }
    }
  }
  for (const video of [...elements('video'), ...elements('source')]) {
    const src = absolute(getAttributeValue(video, 'src'), pageUrl);
    if (src) candidates.push({ url: src, title: pageTitle, thumbnail: absolute(getAttributeValue(video, 'poster'), pageUrl) ?? pageImage });
  }
  for (const link of elements('a')) {
    const href = absolute(getAttributeValue(link, 'href'), pageUrl);
    if (href && /\.(m3u8|mp4)(\?|$)/i.test(new URL(href).pathname + new URL(href).search)) {
      candidates.push({ url: href, title: text(textContent(link)) ?? pageTitle });
    }
  }

  return toDiscovered(candidates);
}

/** Playable, canonical, deduplicated by duplicate identity, capped. */
export function toDiscovered(candidates: readonly Candidate[]): DiscoveredStreamDto[] {
  const seen = new Set<string>();
  const out: DiscoveredStreamDto[] = [];
  for (const candidate of candidates) {
    if (!isPlayable(candidate.url)) continue;
    const url = canonical(candidate.url);
    const normalizedUrl = normalizeStreamUrl(url);
    if (seen.has(normalizedUrl)) continue;
    seen.add(normalizedUrl);
    out.push({
      url,
      normalizedUrl,
      platform: guessPlatform(url),
      title: candidate.title ?? null,
      thumbnail: thumbnailUrl(url) ?? candidate.thumbnail ?? null,
      embedUrl: embedUrlOf(url, candidate.url),
    });
    if (out.length >= MAX_STREAMS_PER_PAGE) break;
  }
  return out;
}

/**
 * Links from a page to other pages of the same site (crawling one level deep): same host
 * (ignoring www.), http(s), no fragments, no media or obvious asset files, first `limit` in order.
 */
export function sameSiteLinks(html: string, pageUrl: string, limit: number): string[] {
  const doc = parseDocument(html, { decodeEntities: true });
  const site = new URL(pageUrl).hostname.replace(/^www\./, '');
  const seen = new Set<string>([pageUrl.replace(/#.*$/, '')]);
  const out: string[] = [];
  for (const link of findAll((e: Element) => e.name === 'a', doc.children)) {
    const href = absolute(getAttributeValue(link, 'href'), pageUrl);
    if (!href) continue;
    const url = new URL(href);
    url.hash = '';
    if (url.hostname.replace(/^www\./, '') !== site) continue;
    if (/\.(?:jpe?g|png|gif|svg|webp|css|js|pdf|zip|m3u8?|mp4|ico|xml)$/i.test(url.pathname)) continue;
    if (seen.has(url.href)) continue;
    seen.add(url.href);
    out.push(url.href);
    if (out.length >= limit) break;
  }
  return out;
}
