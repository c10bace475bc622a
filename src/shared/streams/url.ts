/**
 * Stream URL rules shared by server and browser (spec §5 validity, §9 embed parameters):
 * recognising platforms, validating, normalising for duplicate detection and building the
 * autoplaying embed address a player shows.
 */
import { LIMITS } from '../constants.ts';

/** Spec §9's keyword rules on a URL: one rule for URL analysis and discovery, in category-words.ts. */
export { suggestCategory } from './category-words.ts';

export type StreamFormat =
  | 'youtube'
  | 'twitch'
  | 'vimeo'
  | 'earthcam'
  | 'skylinewebcams'
  | 'mp4'
  | 'hls'
  | 'webm'
  | 'flv'
  | 'mov'
  | 'unknown';

/** `direct` formats play in a <video>; everything else is an embedded page in an iframe. */
export type StreamType = 'embedded' | 'direct';

export type YouTubeRef = { kind: 'video'; id: string } | { kind: 'channel'; channelId: string };

/**
 * The only hosts a player may frame (and the Content-Security-Policy's frame-src): anything
 * else is a link-out tile, never an iframe of an arbitrary page.
 */
export const FRAME_HOSTS = [
  'www.youtube.com',
  'www.youtube-nocookie.com',
  'player.twitch.tv',
  'player.vimeo.com',
  'vimeo.com',
  'www.earthcam.com',
  'www.skylinewebcams.com',
] as const;

const YOUTUBE_HOSTS = new Set([
  'youtube.com',
  'www.youtube.com',
  'm.youtube.com',
  'youtube-nocookie.com',
  'www.youtube-nocookie.com',
]);
const YOUTUBE_ID = /^[A-Za-z0-9_-]{11}$/;
const YOUTUBE_CHANNEL = /^UC[A-Za-z0-9_-]{22}$/;
const TWITCH_HOSTS = new Set(['twitch.tv', 'www.twitch.tv', 'm.twitch.tv', 'go.twitch.tv']);
const TWITCH_CHANNEL = /^[A-Za-z0-9_]{3,25}$/;
/** First path segments of twitch.tv that are pages, not channels. */
const TWITCH_RESERVED = new Set([
  'directory', 'videos', 'p', 'settings', 'search', 'downloads', 'jobs', 'turbo', 'subscriptions',
  'inventory', 'wallet', 'friends', 'messages', 'login', 'signup', 'user', 'store', 'prime', 'drops',
]);
const DIRECT_EXTENSIONS: Record<string, StreamFormat> = {
  m3u8: 'hls',
  mp4: 'mp4',
  webm: 'webm',
  flv: 'flv',
  mov: 'mov',
};
/** A path ending in a media file, optionally with a query (spec §5). */
const MEDIA_FILE = /^[^\s?#]+\.(mp4|m3u8|webm|flv|mov)(\?[^\s#]*)?$/i;
/** Scheme-less links the spec accepts: YouTube embed/short, Twitch, EarthCam, SkylineWebcams. */
const SCHEMELESS_KNOWN =
  /^(www\.)?(youtube\.com\/embed\/|youtube-nocookie\.com\/embed\/|youtu\.be\/|twitch\.tv\/|m\.twitch\.tv\/|earthcam\.com\/|skylinewebcams\.com\/)\S+$/i;

function hostOf(url: URL): string {
  return url.hostname.toLowerCase();
}

/** Parses text as an absolute http(s) URL; anything else (javascript:, data:, relative) is null. */
export function parseHttpUrl(input: string): URL | null {
  const text = input.trim();
  if (!/^https?:\/\//i.test(text)) return null;
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : null;
  } catch {
    return null;
  }
}

/**
 * Turns what a person pastes into an absolute http(s) URL, or null. Besides absolute http(s)
 * URLs it accepts the scheme-less forms of spec §5 and adds `https://`: YouTube embed and short
 * links, Twitch, EarthCam and SkylineWebcams links, and media files on a host
 * (`cdn.example.org/live.m3u8`). A bare file name (`bears.mp4`) names no server to play it
 * from, and another scheme (`javascript:`, `data:`, `ftp:`) is never guessed around.
 */
export function toAbsoluteUrl(input: string): URL | null {
  const text = input.trim();
  const direct = parseHttpUrl(text);
  if (direct) return direct;
  if (/^[a-z][a-z0-9+.-]*:/i.test(text)) return null;
  // A host needs an alphabetic top-level label; "live.m3u8" or "clip.mov" is a file, not a host.
  const host = /^([a-z0-9-]+(?:\.[a-z0-9-]+)*\.([a-z]{2,63}))(:\d+)?(\/|$)/i.exec(text);
  if (!host || DIRECT_EXTENSIONS[host[2]!.toLowerCase()]) return null;
  if (!SCHEMELESS_KNOWN.test(text) && !MEDIA_FILE.test(text)) return null;
  return parseHttpUrl(`https://${text}`);
}

/**
 * Spec §5 validity, the one rule the API's StreamUrl schema applies too: the text can be made
 * an absolute http(s) address a screen can play from (see toAbsoluteUrl).
 */
export function isValidStreamUrl(input: string): boolean {
  return input.trim().length <= LIMITS.url && toAbsoluteUrl(input) !== null;
}

/** The YouTube video or live-channel a URL points at; null for anything else. */
export function parseYouTube(input: string): YouTubeRef | null {
  const url = toAbsoluteUrl(input);
  if (!url) return null;
  const host = hostOf(url);
  const segments = url.pathname.split('/').filter(Boolean);
  let id: string | null | undefined;
  if (host === 'youtu.be') {
    id = segments[0];
  } else if (YOUTUBE_HOSTS.has(host)) {
    const [first, second] = segments;
    if (first === 'watch') id = url.searchParams.get('v');
    else if (first === 'embed' && second === 'live_stream') {
      const channelId = url.searchParams.get('channel');
      return channelId && YOUTUBE_CHANNEL.test(channelId) ? { kind: 'channel', channelId } : null;
    } else if (first === 'channel' && second && YOUTUBE_CHANNEL.test(second)) {
      return { kind: 'channel', channelId: second };
    } else if (first && ['embed', 'live', 'shorts', 'v'].includes(first)) id = second;
  }
  return id && YOUTUBE_ID.test(id) ? { kind: 'video', id } : null;
}

/** The Twitch channel of a channel or player link, lower-cased; null for VODs and other pages. */
export function parseTwitchChannel(input: string): string | null {
  const url = toAbsoluteUrl(input);
  if (!url) return null;
  const host = hostOf(url);
  let channel: string | null | undefined;
  if (host === 'player.twitch.tv') channel = url.searchParams.get('channel');
  else if (TWITCH_HOSTS.has(host)) channel = url.pathname.split('/').filter(Boolean)[0];
  if (!channel || !TWITCH_CHANNEL.test(channel) || TWITCH_RESERVED.has(channel.toLowerCase())) return null;
  return channel.toLowerCase();
}

/** Vimeo video (`123`) or live event (`event:123`) id. */
export function parseVimeo(input: string): string | null {
  const url = toAbsoluteUrl(input);
  if (!url) return null;
  const host = hostOf(url);
  const segments = url.pathname.split('/').filter(Boolean);
  if (host === 'player.vimeo.com' && segments[0] === 'video' && /^\d+$/.test(segments[1] ?? '')) {
    return segments[1] ?? null;
  }
  if (host !== 'vimeo.com' && host !== 'www.vimeo.com') return null;
  if (segments[0] === 'event' && /^\d+$/.test(segments[1] ?? '')) return `event:${segments[1]}`;
  const last = segments.findLast((s) => /^\d+$/.test(s));
  return last ?? null;
}

function hostIs(url: URL, domain: string): boolean {
  const host = hostOf(url);
  return host === domain || host.endsWith(`.${domain}`);
}

/** The media format of a stream URL (spec §3 "Stream analysis result"). */
export function detectFormat(input: string): StreamFormat {
  const url = toAbsoluteUrl(input);
  if (url) {
    if (parseYouTube(url.href)) return 'youtube';
    if (hostIs(url, 'twitch.tv')) return 'twitch';
    if (hostIs(url, 'vimeo.com')) return 'vimeo';
    if (hostIs(url, 'earthcam.com')) return 'earthcam';
    if (hostIs(url, 'skylinewebcams.com')) return 'skylinewebcams';
  }
  const path = url ? url.pathname : input.trim().split(/[?#]/)[0] ?? '';
  const extension = /\.([a-z0-9]+)$/i.exec(path)?.[1]?.toLowerCase();
  return (extension && DIRECT_EXTENSIONS[extension]) || 'unknown';
}

export function streamTypeOf(format: StreamFormat): StreamType {
  return format === 'mp4' || format === 'hls' || format === 'webm' || format === 'flv' || format === 'mov'
    ? 'direct'
    : 'embedded';
}

/**
 * The identity of a stream for duplicate detection: the same YouTube video or channel, the
 * same Twitch channel or Vimeo id, or the same URL regardless of scheme, host case, `www.`,
 * default port, trailing slash and fragment.
 */
export function normalizeStreamUrl(input: string): string {
  const youtube = parseYouTube(input);
  if (youtube) return youtube.kind === 'video' ? `youtube:video:${youtube.id}` : `youtube:channel:${youtube.channelId}`;
  const twitch = parseTwitchChannel(input);
  if (twitch) return `twitch:${twitch}`;
  const vimeo = parseVimeo(input);
  if (vimeo) return `vimeo:${vimeo}`;
  const url = toAbsoluteUrl(input);
  if (!url) return input.trim();
  const host = hostOf(url).replace(/^www\./, '');
  const port = url.port ? `:${url.port}` : '';
  const path = url.pathname.replace(/\/+$/, '');
  return `${host}${port}${path}${url.search}`;
}

function titleCase(words: string): string {
  return words.replace(/\b\p{L}/gu, (c) => c.toUpperCase());
}

/** A readable default name for a pasted link: channel, file or page name. */
export function suggestName(input: string): string {
  const twitch = parseTwitchChannel(input);
  if (twitch) return `${titleCase(twitch.replace(/_/g, ' '))} (Twitch)`;
  const youtube = parseYouTube(input);
  if (youtube) return youtube.kind === 'video' ? `YouTube live ${youtube.id}` : 'YouTube live channel';
  const url = toAbsoluteUrl(input);
  const path = url ? url.pathname : input;
  const last = path.split('/').filter(Boolean).pop() ?? '';
  const base = decodeURIComponent(last.replace(/\.[a-z0-9]+$/i, '')).replace(/[-_.]+/g, ' ').trim();
  if (base && !/^(index|playlist|master|live|stream|embed)$/i.test(base)) return titleCase(base);
  return url ? hostOf(url).replace(/^www\./, '') : 'New stream';
}

/** Spec §9: autoplay, mute, no controls, modest branding, JS API, start 0, loop, no related videos. */
export function youtubeEmbedUrl(ref: YouTubeRef): string {
  const params = new URLSearchParams({
    autoplay: '1',
    mute: '1',
    controls: '0',
    modestbranding: '1',
    enablejsapi: '1',
    start: '0',
    loop: '1',
    rel: '0',
    playsinline: '1',
  });
  if (ref.kind === 'channel') {
    params.set('channel', ref.channelId);
    return `https://www.youtube.com/embed/live_stream?${params}`;
  }
  params.set('playlist', ref.id); // YouTube loops a single video only through a playlist of itself
  return `https://www.youtube.com/embed/${ref.id}?${params}`;
}

/** Spec §9: the Twitch player needs every host that frames it as a `parent`. */
export function twitchEmbedUrl(channel: string, parents: readonly string[]): string {
  const params = new URLSearchParams({ channel, autoplay: 'true', muted: 'true', width: '100%', height: '100%' });
  for (const parent of new Set(parents)) params.append('parent', parent);
  params.set('layout', 'video');
  params.set('theme', 'dark');
  return `https://player.twitch.tv/?${params}`;
}

export function vimeoEmbedUrl(id: string): string {
  if (id.startsWith('event:')) return `https://vimeo.com/event/${id.slice(6)}/embed?autoplay=1&muted=1`;
  return `https://player.vimeo.com/video/${id}?autoplay=1&muted=1&background=1`;
}

/** Spec §9: thumbnails use YouTube's mqdefault image; other platforms have none we can build. */
export function thumbnailUrl(input: string): string | null {
  const youtube = parseYouTube(input);
  return youtube?.kind === 'video' ? `https://i.ytimg.com/vi/${youtube.id}/mqdefault.jpg` : null;
}
