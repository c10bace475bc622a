/**
 * Embedded streams, where no video can be decoded on our side (a cross-origin player): the
 * platform's own word, through its API when credentials are configured (live status,
 * definition), otherwise public signals — oEmbed, or the page answering at all — with lower
 * confidence. The platform clients (modules/platforms) make every request through the safe
 * fetcher.
 */
import type { QualityMeasurements } from '../../../shared/quality/score.ts';
import { parseTwitchChannel, parseVimeo, parseYouTube, type StreamFormat } from '../../../shared/streams/url.ts';
import { maybeJson, type RequestContext } from '../../platforms/request.ts';
import { hasTwitchCredentials, helixGet, twitchAppToken } from '../../platforms/twitch.ts';
import { vimeoOembed } from '../../platforms/vimeo.ts';
import { youtubeApiGet, youtubeApiUrl, youtubeOembed } from '../../platforms/youtube.ts';
import type { Analysis, AnalyzerContext } from './types.ts';

const result = (measurements: QualityMeasurements, metrics: Record<string, unknown>): Analysis => ({ measurements, metrics, cpuSeconds: null });

interface VideosAnswer {
  items?: { snippet?: { title?: string; liveBroadcastContent?: string }; contentDetails?: { definition?: string } }[];
}

export async function analyzeEmbedded(url: string, format: StreamFormat, ctx: AnalyzerContext): Promise<Analysis> {
  const metrics: Record<string, unknown> = { format };
  const request: RequestContext = { fetcher: ctx.fetcher, signal: AbortSignal.timeout(20_000), timeoutMs: 10_000 };
  try {
    const youtube = parseYouTube(url);
    if (youtube?.kind === 'video' && ctx.platforms.youtube.apiKey) {
      const api = youtubeApiUrl(ctx.platforms.youtube, 'videos', { part: 'snippet,contentDetails,liveStreamingDetails', id: youtube.id });
      const response = await youtubeApiGet(request, ctx.platforms.youtube, api);
      const item = maybeJson<VideosAnswer>(response)?.items?.[0];
      if (response.status !== 200) return result({ method: 'api', reachable: true, error: `YouTube API error ${response.status}` }, { ...metrics, api_status: response.status });
      if (!item) return result({ method: 'api', reachable: false, error: 'The video does not exist or is private' }, metrics);
      const live = item.snippet?.liveBroadcastContent === 'live';
      const definition = item.contentDetails?.definition === 'sd' ? 'sd' : 'hd';
      Object.assign(metrics, { title: item.snippet?.title, live, definition });
      return result({ method: 'api', reachable: true, live, definition }, metrics);
    }
    if (youtube) {
      const response = await youtubeOembed(request, ctx.platforms.youtube, url);
      metrics.oembed_status = response.status;
      if (response.status === 404 || response.status === 401 || response.status === 403) return result({ method: 'oembed', reachable: false, error: `YouTube says the video is unavailable (HTTP ${response.status})` }, metrics);
      metrics.title = maybeJson<{ title?: string }>(response)?.title ?? null;
      return result({ method: 'oembed', reachable: response.status === 200 }, metrics);
    }
    const twitch = parseTwitchChannel(url);
    if (twitch && hasTwitchCredentials(ctx.platforms.twitch)) {
      try {
        await twitchAppToken(request, ctx.platforms.twitch); // cached: the request below reuses it
      } catch {
        return result({ method: 'api', reachable: true, error: 'Twitch refused the client credentials' }, metrics);
      }
      const response = await helixGet(request, ctx.platforms.twitch, '/helix/streams', { user_login: twitch });
      const live = (maybeJson<{ data?: unknown[] }>(response)?.data ?? []).length > 0;
      metrics.live = live;
      return result({ method: 'api', reachable: true, live }, metrics);
    }
    if (parseVimeo(url)) {
      const response = await vimeoOembed(request, ctx.platforms.vimeo, url);
      metrics.oembed_status = response.status;
      if (response.status === 404 || response.status === 403) return result({ method: 'oembed', reachable: false, error: `Vimeo says the video is unavailable (HTTP ${response.status})` }, metrics);
      metrics.title = maybeJson<{ title?: string }>(response)?.title ?? null;
      return result({ method: 'oembed', reachable: response.status === 200 }, metrics);
    }
    // A webcam page, or Twitch without credentials: does the page answer at all?
    const page = await ctx.fetcher.fetch(url, { timeoutMs: 10_000 });
    metrics.page_status = page.status;
    if (page.status >= 400) return result({ method: 'oembed', reachable: false, error: `The page answered HTTP ${page.status}` }, metrics);
    return result({ method: 'oembed', reachable: true }, metrics);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return result({ method: 'oembed', reachable: false, error: message }, { ...metrics, error: message });
  }
}
