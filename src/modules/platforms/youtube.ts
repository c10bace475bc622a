/** The YouTube Data API v3 (with the API key) and YouTube's public oEmbed. */
import type { SafeResponse } from '../../http/safe-fetch.ts';
import { platformRequest, type RequestContext } from './request.ts';
import type { PlatformSettings } from './settings.ts';

type YouTubeSettings = PlatformSettings['youtube'];

/** The request URL of a Data API call without the key (a cache key), and the call itself. */
export function youtubeApiUrl(settings: YouTubeSettings, path: string, params: Record<string, string>): URL {
  const url = new URL(`/youtube/v3/${path}`, settings.baseUrl);
  url.search = new URLSearchParams(params).toString();
  return url;
}

export function youtubeApiGet(ctx: RequestContext, settings: YouTubeSettings, url: URL): Promise<SafeResponse> {
  const keyed = new URL(url);
  keyed.searchParams.set('key', settings.apiKey ?? '');
  return platformRequest(ctx, 'YouTube', keyed.href);
}

export function youtubeOembed(ctx: RequestContext, settings: YouTubeSettings, videoUrl: string): Promise<SafeResponse> {
  const url = new URL(settings.oembedUrl);
  url.search = new URLSearchParams({ url: videoUrl, format: 'json' }).toString();
  return platformRequest(ctx, 'YouTube', url.href);
}
