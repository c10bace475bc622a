/**
 * What a stream URL becomes on screen (pure, so it is table-tested): a platform embed built by
 * the shared URL rules, an iframe of an allow-listed webcam site, a direct video (HLS or file),
 * or a link out. Anything that is not recognised media or an allow-listed host is never put in
 * an iframe: an arbitrary page in a frame is a hole, and the CSP would block it anyway.
 */
import {
  detectFormat,
  FRAME_HOSTS,
  parseHttpUrl,
  parseTwitchChannel,
  parseVimeo,
  parseYouTube,
  twitchEmbedUrl,
  vimeoEmbedUrl,
  youtubeEmbedUrl,
} from './url.ts';

export type PlayerSource =
  | { kind: 'embed'; platform: 'youtube' | 'twitch' | 'vimeo' | 'earthcam' | 'skylinewebcams'; src: string }
  | { kind: 'hls'; src: string }
  | { kind: 'file'; src: string; mime: string }
  | { kind: 'link'; href: string; host: string };

/** Webcam sites whose pages may be framed, each under the one host the CSP allows. */
const FRAMEABLE_SITES: Record<string, { host: string; platform: 'earthcam' | 'skylinewebcams' }> = {
  'earthcam.com': { host: 'www.earthcam.com', platform: 'earthcam' },
  'www.earthcam.com': { host: 'www.earthcam.com', platform: 'earthcam' },
  'skylinewebcams.com': { host: 'www.skylinewebcams.com', platform: 'skylinewebcams' },
  'www.skylinewebcams.com': { host: 'www.skylinewebcams.com', platform: 'skylinewebcams' },
};

const FILE_TYPES: Record<string, string> = { mp4: 'video/mp4', webm: 'video/webm', mov: 'video/mp4' };

function linkOut(url: URL | null, raw: string): PlayerSource {
  return { kind: 'link', href: url?.href ?? raw, host: url ? url.hostname.replace(/^www\./, '') : raw };
}

const FRAMEABLE: ReadonlySet<string> = new Set(FRAME_HOSTS);

/** The source a player shows for `url`; `hostname` is the page's host (Twitch `parent`). */
export function resolvePlayerSource(url: string, hostname: string): PlayerSource {
  const source = sourceFor(url, hostname);
  // Belt and braces: only the hosts the CSP's frame-src allows are ever put in a frame.
  if (source.kind === 'embed' && !FRAMEABLE.has(new URL(source.src).hostname)) return linkOut(parseHttpUrl(url), url);
  return source;
}

function sourceFor(url: string, hostname: string): PlayerSource {
  const parsed = parseHttpUrl(url);
  const youtube = parseYouTube(url);
  if (youtube) return { kind: 'embed', platform: 'youtube', src: youtubeEmbedUrl(youtube) };
  const twitch = parseTwitchChannel(url);
  if (twitch) return { kind: 'embed', platform: 'twitch', src: twitchEmbedUrl(twitch, [hostname]) };
  const vimeo = parseVimeo(url);
  if (vimeo) return { kind: 'embed', platform: 'vimeo', src: vimeoEmbedUrl(vimeo) };
  if (!parsed) return linkOut(null, url);

  const site = FRAMEABLE_SITES[parsed.hostname.toLowerCase()];
  if (site) {
    const framed = new URL(parsed.href);
    framed.protocol = 'https:';
    framed.hostname = site.host;
    framed.port = '';
    return { kind: 'embed', platform: site.platform, src: framed.href };
  }

  const format = detectFormat(url);
  if (format === 'hls') return { kind: 'hls', src: parsed.href };
  const mime = FILE_TYPES[format];
  if (mime) return { kind: 'file', src: parsed.href, mime };
  return linkOut(parsed, url); // flv, unknown pages, unrecognised platforms
}

/** Direct media can be watched for errors and retried; embeds cannot tell us. */
export function isDirect(source: PlayerSource): source is Extract<PlayerSource, { kind: 'hls' | 'file' }> {
  return source.kind === 'hls' || source.kind === 'file';
}

/** The addresses a player tries in turn: the stream URL, then its fallback when it has one. */
export function candidateUrls(stream: { url: string; fallback_url: string | null }): string[] {
  return stream.fallback_url && stream.fallback_url !== stream.url ? [stream.url, stream.fallback_url] : [stream.url];
}
