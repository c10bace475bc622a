/** The Vimeo API (with VIMEO_TOKEN) and Vimeo's public oEmbed. */
import type { SafeResponse } from '../../http/safe-fetch.ts';
import { platformRequest, type RequestContext } from './request.ts';
import type { PlatformSettings } from './settings.ts';

type VimeoSettings = PlatformSettings['vimeo'];

export function vimeoApiGet(ctx: RequestContext, settings: VimeoSettings, path: string): Promise<SafeResponse> {
  return platformRequest(ctx, 'Vimeo', new URL(path, settings.apiBaseUrl).href, {
    accept: 'application/vnd.vimeo.*+json;version=3.4',
    headers: { authorization: `bearer ${settings.token}` },
  });
}

export function vimeoOembed(ctx: RequestContext, settings: VimeoSettings, link: string): Promise<SafeResponse> {
  const url = new URL(settings.oembedUrl);
  url.searchParams.set('url', link);
  return platformRequest(ctx, 'Vimeo', url.href);
}
