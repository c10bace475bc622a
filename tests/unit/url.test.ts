import { describe, expect, it } from 'vitest';
import {
  detectFormat,
  isValidStreamUrl,
  normalizeStreamUrl,
  parseTwitchChannel,
  parseVimeo,
  parseYouTube,
  streamTypeOf,
  suggestCategory,
  suggestName,
  thumbnailUrl,
  toAbsoluteUrl,
  twitchEmbedUrl,
  youtubeEmbedUrl,
} from '../../src/shared/streams/url.ts';
import { StreamUrl } from '../../src/shared/api/index.ts';

describe('isValidStreamUrl (spec §5)', () => {
  it.each([
    ['an https URL', 'https://example.org/cam', true],
    ['an http URL', 'http://example.org:8080/live', true],
    ['a media file on a host, without a scheme', 'cdn.example.org/bears.mp4', true],
    ['a media file with a query', 'cdn.example.org/cams/live.m3u8?token=abc', true],
    ['webm, flv and mov files', 'cdn.example.org/a.webm', true],
    ['flv', 'cdn.example.org/a.flv', true],
    ['mov', 'cdn.example.org/a.MOV', true],
    ['refuses a bare file name: no server to play it from', 'bears.mp4', false],
    ['refuses a relative media path', 'cams/live.m3u8?token=abc', false],
    ['a scheme-less YouTube embed', 'www.youtube.com/embed/ydYDqZQpim8', true],
    ['a YouTube short link', 'youtu.be/ydYDqZQpim8', true],
    ['a scheme-less Twitch link', 'twitch.tv/alveussanctuary', true],
    ['a scheme-less EarthCam link', 'www.earthcam.com/usa/newyork/', true],
    ['a scheme-less SkylineWebcams link', 'skylinewebcams.com/en/webcam/italia.html', true],
    ['refuses javascript:', 'javascript:alert(1)', false],
    ['refuses data:', 'data:text/html,<script>', false],
    ['refuses ftp:', 'ftp://example.org/a.mp4', false],
    ['refuses plain words', 'not a url', false],
    ['refuses an unknown scheme-less host', 'example.org/page', false],
    ['refuses empty text', '   ', false],
    ['refuses an address over 2048 characters', `https://example.org/${'a'.repeat(2048)}`, false],
  ])('%s', (_rule, input, valid) => {
    expect(isValidStreamUrl(input)).toBe(valid);
    // One rule: the API's schema accepts exactly what the shared check calls valid.
    expect(StreamUrl.safeParse(input).success).toBe(valid);
  });
});

describe('toAbsoluteUrl', () => {
  it.each([
    ['keeps an absolute URL', 'https://a.org/x', 'https://a.org/x'],
    ['adds https to a scheme-less host', 'youtu.be/ydYDqZQpim8', 'https://youtu.be/ydYDqZQpim8'],
    ['refuses other schemes', 'javascript:alert(1)', null],
    ['refuses a relative file', 'live.m3u8', null],
  ])('%s', (_rule, input, expected) => {
    expect(toAbsoluteUrl(input)?.href ?? null).toBe(expected);
  });
});

describe('parseYouTube', () => {
  it.each([
    ['watch link', 'https://www.youtube.com/watch?v=ydYDqZQpim8', { kind: 'video', id: 'ydYDqZQpim8' }],
    ['short link', 'https://youtu.be/ydYDqZQpim8?t=3', { kind: 'video', id: 'ydYDqZQpim8' }],
    ['embed link', 'https://www.youtube.com/embed/ydYDqZQpim8', { kind: 'video', id: 'ydYDqZQpim8' }],
    ['nocookie embed', 'https://www.youtube-nocookie.com/embed/ydYDqZQpim8', { kind: 'video', id: 'ydYDqZQpim8' }],
    ['live link', 'https://www.youtube.com/live/ydYDqZQpim8', { kind: 'video', id: 'ydYDqZQpim8' }],
    ['mobile watch', 'https://m.youtube.com/watch?v=ydYDqZQpim8', { kind: 'video', id: 'ydYDqZQpim8' }],
    ['channel live embed', 'https://www.youtube.com/embed/live_stream?channel=UCWh93l9snW90iP2ybPHikAg', { kind: 'channel', channelId: 'UCWh93l9snW90iP2ybPHikAg' }],
    ['bad video id', 'https://www.youtube.com/watch?v=short', null],
    ['bad channel id', 'https://www.youtube.com/embed/live_stream?channel=nope', null],
    ['another site', 'https://vimeo.com/123', null],
    ['unparsable text is left alone', 'youtube', null],
  ])('%s', (_rule, input, expected) => {
    expect(parseYouTube(input)).toEqual(expected);
  });
});

describe('parseTwitchChannel', () => {
  it.each([
    ['channel link', 'https://www.twitch.tv/AlveusSanctuary', 'alveussanctuary'],
    ['mobile link', 'https://m.twitch.tv/alveussanctuary', 'alveussanctuary'],
    ['player link', 'https://player.twitch.tv/?channel=marinemammalrescue&parent=x', 'marinemammalrescue'],
    ['channel sub-page', 'https://twitch.tv/alveussanctuary/about', 'alveussanctuary'],
    ['a VOD is not a channel', 'https://www.twitch.tv/videos/123456', null],
    ['the directory is not a channel', 'https://www.twitch.tv/directory', null],
    ['no channel', 'https://www.twitch.tv/', null],
    ['invalid characters', 'https://www.twitch.tv/bad-name!', null],
  ])('%s', (_rule, input, expected) => {
    expect(parseTwitchChannel(input)).toBe(expected);
  });
});

describe('parseVimeo', () => {
  it.each([
    ['video page', 'https://vimeo.com/76979871', '76979871'],
    ['player link', 'https://player.vimeo.com/video/76979871?h=abc', '76979871'],
    ['live event', 'https://vimeo.com/event/12345', 'event:12345'],
    ['not vimeo', 'https://example.org/123', null],
  ])('%s', (_rule, input, expected) => {
    expect(parseVimeo(input)).toBe(expected);
  });
});

describe('detectFormat and stream type (spec §3)', () => {
  it.each([
    ['youtube', 'https://youtu.be/ydYDqZQpim8', 'youtube', 'embedded'],
    ['twitch', 'https://www.twitch.tv/alveussanctuary', 'twitch', 'embedded'],
    ['vimeo', 'https://vimeo.com/76979871', 'vimeo', 'embedded'],
    ['earthcam', 'https://www.earthcam.com/canada/niagarafalls/thefalls/', 'earthcam', 'embedded'],
    ['skylinewebcams', 'https://www.skylinewebcams.com/en/webcam/italia/sicilia/catania/etna-nord.html', 'skylinewebcams', 'embedded'],
    ['hls', 'https://cdn.example.org/live/WildEarth.m3u8', 'hls', 'direct'],
    ['hls with query', 'https://cdn.example.org/live.m3u8?token=1', 'hls', 'direct'],
    ['mp4', 'https://cdn.example.org/bears.MP4', 'mp4', 'direct'],
    ['webm', 'https://cdn.example.org/a.webm', 'webm', 'direct'],
    ['flv', 'https://cdn.example.org/a.flv', 'flv', 'direct'],
    ['mov', 'https://cdn.example.org/a.mov', 'mov', 'direct'],
    ['a bare file name', 'clip.mp4', 'mp4', 'direct'],
    ['unknown page', 'https://example.org/cam', 'unknown', 'embedded'],
  ] as const)('%s', (_rule, input, format, type) => {
    expect(detectFormat(input)).toBe(format);
    expect(streamTypeOf(detectFormat(input))).toBe(type);
  });
});

describe('normalizeStreamUrl: duplicates share one identity', () => {
  it.each([
    ['same YouTube video in watch, short and embed form', 'https://www.youtube.com/watch?v=ydYDqZQpim8', 'https://youtu.be/ydYDqZQpim8', true],
    ['same YouTube video with autoplay parameters', 'https://www.youtube.com/embed/ydYDqZQpim8?autoplay=1&mute=1', 'https://www.youtube.com/embed/ydYDqZQpim8', true],
    ['same YouTube channel embed', 'https://www.youtube.com/embed/live_stream?channel=UCWh93l9snW90iP2ybPHikAg&autoplay=1', 'https://youtube.com/embed/live_stream?channel=UCWh93l9snW90iP2ybPHikAg', true],
    ['same Twitch channel in any case or form', 'https://www.twitch.tv/AlveusSanctuary', 'https://player.twitch.tv/?channel=alveussanctuary&parent=localhost', true],
    ['same URL with a trailing slash', 'https://www.earthcam.com/canada/niagarafalls/thefalls/', 'https://www.earthcam.com/canada/niagarafalls/thefalls', true],
    ['same URL with a differently cased host', 'https://CDN.Example.org/live.m3u8', 'https://cdn.example.org/live.m3u8', true],
    ['same URL with or without www', 'https://www.example.org/live.m3u8', 'https://example.org/live.m3u8', true],
    ['same URL over http and https', 'http://example.org/live.m3u8', 'https://example.org/live.m3u8', true],
    ['same URL with a fragment', 'https://example.org/live.m3u8#t=10', 'https://example.org/live.m3u8', true],
    ['different YouTube videos', 'https://youtu.be/ydYDqZQpim8', 'https://youtu.be/AeMUdOPFcXI', false],
    ['different paths are different streams', 'https://example.org/Cam1.m3u8', 'https://example.org/cam1.m3u8', false],
    ['different queries are different streams', 'https://example.org/live.m3u8?cam=1', 'https://example.org/live.m3u8?cam=2', false],
    ['different ports are different streams', 'https://example.org:8443/live.m3u8', 'https://example.org/live.m3u8', false],
  ])('%s', (_rule, a, b, same) => {
    expect(normalizeStreamUrl(a) === normalizeStreamUrl(b)).toBe(same);
  });
});

describe('suggestCategory (spec §9 keyword rules)', () => {
  it.each([
    ['wildlife words', 'https://example.org/zoo/panda-cam', 'wildlife'],
    ['bird is wildlife', 'https://cams.org/eagle-nest', 'wildlife'],
    ['ocean words', 'https://example.org/coral-reef', 'ocean'],
    ['sea is ocean', 'https://example.org/north-sea', 'ocean'],
    ['volcano', 'https://example.org/volcano/etna', 'volcano'],
    ['waterfall', 'https://example.org/waterfall-cam', 'waterfall'],
    ['wildlife wins over ocean (rule order)', 'https://example.org/marine-animal', 'wildlife'],
    ['otherwise nature', 'https://example.org/mountain', 'nature'],
  ] as const)('%s', (_rule, url, category) => {
    expect(suggestCategory(url)).toBe(category);
  });
});

describe('suggestName', () => {
  it.each([
    ['Twitch channel', 'https://www.twitch.tv/alveus_sanctuary', 'Alveus Sanctuary (Twitch)'],
    ['file name', 'https://cdn.example.org/cams/brown-bear_falls.mp4', 'Brown Bear Falls'],
    ['generic playlist falls back to the host', 'https://www.cdn.example.org/live/playlist.m3u8', 'cdn.example.org'],
  ])('%s', (_rule, url, name) => {
    expect(suggestName(url)).toBe(name);
  });
});

describe('embed addresses (spec §9)', () => {
  it('YouTube video embeds autoplay muted without controls, looping, no related videos', () => {
    const url = new URL(youtubeEmbedUrl({ kind: 'video', id: 'ydYDqZQpim8' }));
    expect(url.origin + url.pathname).toBe('https://www.youtube.com/embed/ydYDqZQpim8');
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      autoplay: '1', mute: '1', controls: '0', modestbranding: '1', enablejsapi: '1', start: '0', loop: '1', rel: '0',
      playlist: 'ydYDqZQpim8',
    });
  });

  it('YouTube channel embeds use the live_stream player', () => {
    const url = new URL(youtubeEmbedUrl({ kind: 'channel', channelId: 'UCWh93l9snW90iP2ybPHikAg' }));
    expect(url.pathname).toBe('/embed/live_stream');
    expect(url.searchParams.get('channel')).toBe('UCWh93l9snW90iP2ybPHikAg');
    expect(url.searchParams.get('mute')).toBe('1');
  });

  it('Twitch embeds list every parent host once, autoplay muted, dark video layout', () => {
    const url = new URL(twitchEmbedUrl('alveussanctuary', ['wall.local', 'localhost', 'wall.local']));
    expect(url.searchParams.getAll('parent')).toEqual(['wall.local', 'localhost']);
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      channel: 'alveussanctuary', autoplay: 'true', muted: 'true', width: '100%', height: '100%', layout: 'video', theme: 'dark',
    });
  });

  it('thumbnails use the mqdefault image for YouTube videos only', () => {
    expect(thumbnailUrl('https://youtu.be/ydYDqZQpim8')).toBe('https://i.ytimg.com/vi/ydYDqZQpim8/mqdefault.jpg');
    expect(thumbnailUrl('https://www.twitch.tv/alveussanctuary')).toBeNull();
  });
});
