/**
 * Embedded streams, where no video can be decoded on our side (a cross-origin player): the
 * platform's own word, through its API when credentials are configured (live status,
 * definition), otherwise public signals — oEmbed, or the page answering at all — with lower
 * confidence. The platform clients (modules/platforms) make every request through the safe
 * fetcher. The thumbnail the platform's answer names becomes the stream's still (still.ts).
 */
import type { QualityMeasurements } from '../../../shared/quality/score.ts';
import { parseTwitchChannel, parseVimeo, parseYouTube, type StreamFormat } from '../../../shared/streams/url.ts';
import { maybeJson, type RequestContext } from '../../platforms/request.ts';
import { hasTwitchCredentials, helixGet, twitchAppToken } from '../../platforms/twitch.ts';
import { vimeoOembed } from '../../platforms/vimeo.ts';
import { youtubeApiGet, youtubeApiUrl, youtubeOembed } from '../../platforms/youtube.ts';
import { fetchThumbnail, THUMBNAIL_SIZE } from './still.ts';
import type { Analysis, AnalyzerContext } from './types.ts';

const result = (measurements: QualityMeasurements, metrics: Record<string, unknown>): Analysis => ({ measurements, metrics, cpuSeconds: null });

type Thumbnails = Partial<Record<'default' | 'medium' | 'high' | 'standard' | 'maxres', { url?: string; width?: number; height?: number }>>;

interface VideosAnswer {
  items?: { snippet?: { title?: string; liveBroadcastContent?: string; thumbnails?: Thumbnails }; contentDetails?: { definition?: string } }[];
}

/** oEmbed's answer (YouTube's and Vimeo's): the title and the thumbnail. */
interface OembedAnswer {
  title?: string;
  thumbnail_url?: string;
}

export async function analyzeEmbedded(url: string, format: StreamFormat, ctx: AnalyzerContext): Promise<Analysis> {
  const analysis = await judgeEmbedded(url, format, ctx);
  const address = analysis.metrics.thumbnail_url;
  if (typeof address !== 'string' || !address || analysis.measurements.reachable === false) return analysis;
  const thumbnail = await fetchThumbnail(ctx.fetcher, address);
  if (thumbnail.still) analysis.metrics.still = { width: thumbnail.still.width, height: thumbnail.still.height, bytes: thumbnail.still.bytes.length };
  else analysis.metrics.still_error = thumbnail.error;
  return { ...analysis, still: thumbnail.still };
}

/** The platform's word on the stream; `metrics.thumbnail_url` is the picture its answer names. */
async function judgeEmbedded(url: string, format: StreamFormat, ctx: AnalyzerContext): Promise<Analysis> {
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
      // "medium" is 320×180: the size of a still.
      const thumbnails = item.snippet?.thumbnails;
      metrics.thumbnail_url = (thumbnails?.medium ?? thumbnails?.high ?? thumbnails?.default)?.url ?? null;
      return result({ method: 'api', reachable: true, live, definition }, metrics);
    }
    if (youtube) {
      const response = await youtubeOembed(request, ctx.platforms.youtube, url);
      metrics.oembed_status = response.status;
      if (response.status === 404 || response.status === 401 || response.status === 403) return result({ method: 'oembed', reachable: false, error: `YouTube says the video is unavailable (HTTP ${response.status})` }, metrics);
      const answer = maybeJson<OembedAnswer>(response);
      metrics.title = answer?.title ?? null;
      metrics.thumbnail_url = answer?.thumbnail_url ?? null;
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
      const streams = maybeJson<{ data?: { thumbnail_url?: string }[] }>(response)?.data ?? [];
      const live = streams.length > 0;
      metrics.live = live;
      metrics.thumbnail_url = streams[0]?.thumbnail_url?.replace('{width}', String(THUMBNAIL_SIZE.width)).replace('{height}', String(THUMBNAIL_SIZE.height)) ?? null;
      return result({ method: 'api', reachable: true, live }, metrics);
    }
    if (parseVimeo(url)) {
      const response = await vimeoOembed(request, ctx.platforms.vimeo, url);
      metrics.oembed_status = response.status;
      if (response.status === 404 || response.status === 403) return result({ method: 'oembed', reachable: false, error: `Vimeo says the video is unavailable (HTTP ${response.status})` }, metrics);
      const answer = maybeJson<OembedAnswer>(response);
      metrics.title = answer?.title ?? null;
      metrics.thumbnail_url = answer?.thumbnail_url ?? null;
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
