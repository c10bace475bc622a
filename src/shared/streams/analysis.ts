/**
 * Spec §3 "Stream analysis result", derived from a link alone (the browser does it on /debug
 * and /submit; nothing is fetched): type, format, validity, suggested name and category, the
 * autoplaying address a player uses, and metadata (a suggested location, its local time, and
 * the deterministic sample weather of spec §8 until real weather is known).
 */
import { suggestLocationForUrl } from './location-suggestion.ts';
import {
  detectFormat,
  isValidStreamUrl,
  parseTwitchChannel,
  parseVimeo,
  parseYouTube,
  streamTypeOf,
  suggestCategory,
  suggestName,
  toAbsoluteUrl,
  twitchEmbedUrl,
  vimeoEmbedUrl,
  youtubeEmbedUrl,
  type StreamFormat,
  type StreamType,
} from './url.ts';
import type { Category } from '../constants.ts';

/** Spec §3 formats (SkylineWebcams and Vimeo are embedded pages, reported as unknown). */
export type AnalysisFormat = 'youtube' | 'twitch' | 'earthcam' | 'mp4' | 'hls' | 'webm' | 'flv' | 'mov' | 'unknown';

export interface StreamAnalysis {
  type: StreamType;
  format: AnalysisFormat;
  isValid: boolean;
  suggestedName: string;
  suggestedCategory: Category;
  autoplayUrl: string;
  metadata: {
    location: string;
    time: string;
    weatherConditions: string;
    timezone: string;
    coordinates: { lat: number; lon: number };
    isRealWeather: boolean;
  };
}

export const INVALID_TWITCH = 'Invalid Twitch URL or channel';

/** The YouTube helper: a YouTube link becomes its autoplaying embed; anything else is returned unchanged. */
export function toYouTubeEmbed(input: string): string {
  const ref = parseYouTube(input);
  return ref ? youtubeEmbedUrl(ref) : input;
}

/** The Twitch helper: a Twitch link becomes its player; a Twitch link with no channel is an error; anything else is unchanged. */
export function toTwitchEmbed(input: string, parents: readonly string[]): string {
  const url = toAbsoluteUrl(input);
  const host = url?.hostname.toLowerCase() ?? '';
  const isTwitch = host === 'twitch.tv' || host.endsWith('.twitch.tv');
  if (!isTwitch) return input;
  const channel = parseTwitchChannel(input);
  if (!channel) throw new Error(INVALID_TWITCH);
  return twitchEmbedUrl(channel, parents);
}

const SAMPLE_CONDITIONS: [string, number][] = [
  ['Sunny', 24],
  ['Partly cloudy', 19],
  ['Clear skies', 21],
  ['Light breeze', 17],
  ['Overcast', 14],
  ['Pleasant', 21],
  ['Misty', 11],
];

/** Spec §8: a deterministic sample weather text (seeded by the text, e.g. the location) and `isRealWeather: false`. */
export function sampleWeather(seed: string): string {
  let h = 0;
  for (let i = 0; i < seed.length; i++) h = (h * 31 + seed.charCodeAt(i)) >>> 0;
  const [condition, celsius] = SAMPLE_CONDITIONS[h % SAMPLE_CONDITIONS.length]!;
  return `${condition} ${celsius}°C`;
}

function localTime(timezone: string, now: Date): string {
  try {
    return new Intl.DateTimeFormat('en-GB', { timeZone: timezone, hour: '2-digit', minute: '2-digit' }).format(now);
  } catch {
    return now.toISOString().slice(11, 16);
  }
}

const SPEC_FORMATS = new Set<StreamFormat>(['youtube', 'twitch', 'earthcam', 'mp4', 'hls', 'webm', 'flv', 'mov']);

export function analyzeStream(input: string, options: { parents?: readonly string[]; now?: Date } = {}): StreamAnalysis {
  const text = input.trim();
  const detected = detectFormat(text);
  const format: AnalysisFormat = SPEC_FORMATS.has(detected) ? (detected as AnalysisFormat) : 'unknown';
  const absolute = toAbsoluteUrl(text)?.href ?? text;
  let autoplayUrl = absolute;
  let isValid = isValidStreamUrl(text);
  if (detected === 'youtube') autoplayUrl = toYouTubeEmbed(absolute);
  else if (detected === 'twitch') {
    try {
      autoplayUrl = toTwitchEmbed(absolute, options.parents ?? ['localhost']);
    } catch {
      isValid = false;
    }
  } else if (detected === 'vimeo') {
    const id = parseVimeo(absolute);
    if (id) autoplayUrl = vimeoEmbedUrl(id);
  }
  const place = suggestLocationForUrl(absolute);
  return {
    type: streamTypeOf(detected),
    format,
    isValid,
    suggestedName: suggestName(text),
    suggestedCategory: suggestCategory(text),
    autoplayUrl,
    metadata: {
      location: place.name,
      time: localTime(place.timezone, options.now ?? new Date()),
      weatherConditions: sampleWeather(place.name),
      timezone: place.timezone,
      coordinates: place.coordinates,
      isRealWeather: false,
    },
  };
}
