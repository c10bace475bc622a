/**
 * Spec §3 stream analysis, §5 helpers and platform guess, §9 location suggestions, and the
 * embed-code reading of /submit: one row per rule and per URL shape, hostile input included.
 */
import { describe, expect, it } from 'vitest';
import { analyzeStream, INVALID_TWITCH, sampleWeather, toTwitchEmbed, toYouTubeEmbed } from '../../src/shared/streams/analysis.ts';
import { PLACES, suggestLocationForCategory, suggestLocationForUrl } from '../../src/shared/streams/location-suggestion.ts';
import { isValidTimezone } from '../../src/shared/streams/location.ts';
import { embedSource, guessPlatform, linksIn, looksLikeEmbedCode } from '../../src/shared/streams/platform.ts';

describe('analyzeStream (spec §3)', () => {
  it.each([
    ['YouTube watch link', 'https://www.youtube.com/watch?v=ydYDqZQpim8', 'embedded', 'youtube', true, /^https:\/\/www\.youtube\.com\/embed\/ydYDqZQpim8\?autoplay=1&mute=1/],
    ['YouTube short link, no scheme', 'youtu.be/ydYDqZQpim8', 'embedded', 'youtube', true, /youtube\.com\/embed\/ydYDqZQpim8/],
    ['YouTube shorts', 'https://youtube.com/shorts/ydYDqZQpim8', 'embedded', 'youtube', true, /embed\/ydYDqZQpim8/],
    ['YouTube live channel embed', 'https://www.youtube.com/embed/live_stream?channel=UCabcdefghijklmnopqrstuv', 'embedded', 'youtube', true, /live_stream\?.*channel=UCabcdefghijklmnopqrstuv/],
    ['Twitch channel', 'https://www.twitch.tv/alveussanctuary', 'embedded', 'twitch', true, /^https:\/\/player\.twitch\.tv\/\?channel=alveussanctuary.*parent=wall\.example/],
    ['Twitch page without a channel', 'https://www.twitch.tv/directory', 'embedded', 'twitch', false, /twitch\.tv\/directory/],
    ['Vimeo video', 'https://vimeo.com/123456', 'embedded', 'unknown', true, /player\.vimeo\.com\/video\/123456\?autoplay=1/],
    ['EarthCam page', 'https://www.earthcam.com/usa/newyork/', 'embedded', 'earthcam', true, /earthcam\.com/],
    ['HLS', 'https://cdn.example.org/live/index.m3u8', 'direct', 'hls', true, /index\.m3u8$/],
    ['MP4 with a query', 'https://cdn.example.org/clip.mp4?t=1', 'direct', 'mp4', true, /clip\.mp4\?t=1$/],
    ['WebM', 'https://cdn.example.org/a.webm', 'direct', 'webm', true, /a\.webm$/],
    ['FLV', 'https://cdn.example.org/a.flv', 'direct', 'flv', true, /a\.flv$/],
    ['MOV', 'https://cdn.example.org/a.mov', 'direct', 'mov', true, /a\.mov$/],
    ['a bare file name: no server to play it from', 'bears.mp4', 'direct', 'mp4', false, /bears\.mp4/],
    ['javascript: URL', 'javascript:alert(1)', 'embedded', 'unknown', false, /javascript/],
    ['data: URL', 'data:text/html,<script>alert(1)</script>', 'embedded', 'unknown', false, /^data:/],
    ['credentials in a URL are still a URL (the safe fetcher refuses to send them)', 'https://user:pw@cdn.example.org/a.m3u8', 'direct', 'hls', true, /a\.m3u8/],
    ['punycode host', 'https://xn--bcher-kva.example/cam.m3u8', 'direct', 'hls', true, /xn--bcher-kva/],
    ['unicode host (normalised to punycode)', 'https://bücher.example/cam.m3u8', 'direct', 'hls', true, /xn--bcher-kva/],
    ['a 10 kB string', `https://example.org/${'a'.repeat(10_000)}`, 'embedded', 'unknown', false, /example\.org/],
  ])('%s', (_rule, input, type, format, valid, autoplay) => {
    const result = analyzeStream(input, { parents: ['wall.example'] });
    expect(result.type).toBe(type);
    expect(result.format).toBe(format);
    expect(result.isValid).toBe(valid);
    expect(result.autoplayUrl).toMatch(autoplay);
  });

  it('suggests a name and a category, and carries sample weather marked as not real', () => {
    const result = analyzeStream('https://cams.example.org/coral-reef/live.m3u8', { now: new Date('2026-06-01T12:00:00Z') });
    expect(result.suggestedName).toBe('cams.example.org');
    expect(result.suggestedCategory).toBe('ocean');
    expect(result.metadata).toMatchObject({ isRealWeather: false, timezone: 'UTC', coordinates: { lat: 0, lon: 0 }, time: '12:00' });
    expect(result.metadata.weatherConditions).toMatch(/^[A-Z][a-z ]+ -?\d+°C$/);
  });
});

describe('the YouTube and Twitch helpers (spec §5)', () => {
  it.each([
    ['YouTube: a video becomes its embed', () => toYouTubeEmbed('https://youtu.be/ydYDqZQpim8'), /embed\/ydYDqZQpim8/],
    ['YouTube: anything else is returned unchanged', () => toYouTubeEmbed('https://example.org/x'), /^https:\/\/example\.org\/x$/],
    ['YouTube: unparsable input is returned unchanged', () => toYouTubeEmbed('not a url'), /^not a url$/],
    ['Twitch: a channel becomes its player', () => toTwitchEmbed('twitch.tv/Foo_Bar', ['a.org']), /channel=foo_bar.*parent=a\.org/],
    ['Twitch: anything else is returned unchanged', () => toTwitchEmbed('https://example.org/x', []), /^https:\/\/example\.org\/x$/],
  ])('%s', (_rule, run, expected) => {
    expect(run()).toMatch(expected);
  });

  it("Twitch: a Twitch link with no channel is 'Invalid Twitch URL or channel'", () => {
    expect(() => toTwitchEmbed('https://www.twitch.tv/videos/123', [])).toThrow(INVALID_TWITCH);
  });
});

describe('platform guess and pasted text (spec §5)', () => {
  it.each([
    ['https://www.youtube.com/watch?v=ydYDqZQpim8', 'youtube'],
    ['https://www.twitch.tv/alveussanctuary', 'twitch'],
    ['https://vimeo.com/123', 'vimeo'],
    ['https://cdn.example.org/a.m3u8', 'hls'],
    ['https://cdn.example.org/a.mp4', 'mp4'],
    ['https://cdn.example.org/a.webm', 'unknown'],
    ['https://www.earthcam.com/x', 'unknown'],
  ])('%s → %s', (url, platform) => {
    expect(guessPlatform(url)).toBe(platform);
  });

  it.each([
    ['an iframe with double quotes', '<iframe width="560" src="https://www.youtube.com/embed/ydYDqZQpim8?si=x&amp;a=1"></iframe>', 'https://www.youtube.com/embed/ydYDqZQpim8?si=x&a=1'],
    ['single quotes and a protocol-relative address', "<iframe src='//player.twitch.tv/?channel=x&parent=a'></iframe>", 'https://player.twitch.tv/?channel=x&parent=a'],
    ['a video source', '<video><source src="https://cdn.example.org/a.m3u8"></video>', 'https://cdn.example.org/a.m3u8'],
    ['a javascript: source is refused', '<iframe src="javascript:alert(1)"></iframe>', null],
    ['markup without a source', '<div>hello</div>', null],
  ])('embed code: %s', (_rule, code, expected) => {
    expect(looksLikeEmbedCode(code)).toBe(true);
    expect(embedSource(code)).toBe(expected);
  });

  it('finds every http(s) link in free text, once each, and nothing else', () => {
    expect(linksIn('see https://a.org/x.m3u8 and\nhttps://a.org/x.m3u8 javascript:alert(1) ftp://b.org')).toEqual(['https://a.org/x.m3u8']);
    expect(linksIn('<iframe src="https://youtu.be/ydYDqZQpim8"></iframe>')).toEqual(['https://youtu.be/ydYDqZQpim8']);
  });
});

describe('location suggestions (spec §9)', () => {
  it('has five places for each category', () => {
    for (const places of Object.values(PLACES)) expect(places).toHaveLength(5);
  });
  it.each(['wildlife', 'ocean', 'volcano', 'waterfall', 'nature'] as const)('%s: a stable place from its own list, confidence 0.8', (category) => {
    const a = suggestLocationForCategory(category, 42);
    expect(suggestLocationForCategory(category, 42)).toEqual(a);
    expect(PLACES[category].map((p) => p[0])).toContain(a.name);
    expect(a).toMatchObject({ confidence: 0.8, source: 'category' });
    expect(isValidTimezone(a.timezone)).toBe(true);
  });
  it('spreads streams over the list by their id', () => {
    const names = new Set(Array.from({ length: 40 }, (_, id) => suggestLocationForCategory('ocean', id).name));
    expect(names.size).toBeGreaterThan(2);
  });
  it.each([
    ['https://zoo.example/panda-cam', 'Wildlife habitat'],
    ['https://example.org/coral-reef', 'Ocean coast'],
    ['https://example.org/volcano-live', 'Volcanic region'],
    ['https://example.org/waterfall', 'Waterfall'],
    ['https://example.org/cam', 'Natural landscape'],
  ])('from the URL alone: %s → %s at 0,0 UTC, confidence 0.6', (url, name) => {
    expect(suggestLocationForUrl(url)).toEqual({ name, coordinates: { lat: 0, lon: 0 }, timezone: 'UTC', confidence: 0.6, source: 'url' });
  });
  it('sample weather is deterministic', () => {
    expect(sampleWeather('Katmai')).toBe(sampleWeather('Katmai'));
  });
});
