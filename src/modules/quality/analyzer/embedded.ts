/**
 * Embedded streams, where no video can be decoded on our side (a cross-origin player): the
 * platform's own word, through its API when credentials are configured (live status,
 * definition), otherwise public signals — oEmbed, or the page answering at all — with lower
 * confidence. Every request goes through the safe fetcher.
 */
import type { QualityMeasurements } from '../../../shared/quality/score.ts';
import { parseTwitchChannel, parseVimeo, parseYouTube, type StreamFormat } from '../../../shared/streams/url.ts';
import { twitchAppToken } from '../../discovery/adapters/twitch.ts';
import type { AnalyzerContext, Analysis } from './index.ts';

async function getJson(ctx: AnalyzerContext, url: string, headers: Record<string, string> = {}): Promise<{ status: number; body: unknown }> {
  const response = await ctx.fetcher.fetch(url, { accept: 'application/json', timeoutMs: 10_000, headers });
  let body: unknown = null;
  try {
    body = JSON.parse(response.body.toString('utf8'));
  } catch {
    // not JSON: the status says enough
  }
  return { status: response.status, body };
}

const result = (measurements: QualityMeasurements, metrics: Record<string, unknown>): Analysis => ({ measurements, metrics, cpuSeconds: null });

export async function analyzeEmbedded(url: string, format: StreamFormat, ctx: AnalyzerContext): Promise<Analysis> {
  const metrics: Record<string, unknown> = { format };
  try {
    const youtube = parseYouTube(url);
    if (youtube?.kind === 'video' && ctx.platforms.youtube.apiKey) {
      const api = new URL('/youtube/v3/videos', ctx.platforms.youtube.baseUrl);
      api.search = new URLSearchParams({ part: 'snippet,contentDetails,liveStreamingDetails', id: youtube.id, key: ctx.platforms.youtube.apiKey }).toString();
      const { status, body } = await getJson(ctx, api.href);
      const item = (body as { items?: { snippet?: { title?: string; liveBroadcastContent?: string }; contentDetails?: { definition?: string } }[] } | null)?.items?.[0];
      if (status !== 200) return result({ method: 'api', reachable: true, error: `YouTube API error ${status}` }, { ...metrics, api_status: status });
      if (!item) return result({ method: 'api', reachable: false, error: 'The video does not exist or is private' }, metrics);
      const live = item.snippet?.liveBroadcastContent === 'live';
      const definition = item.contentDetails?.definition === 'sd' ? 'sd' : 'hd';
      Object.assign(metrics, { title: item.snippet?.title, live, definition });
      return result({ method: 'api', reachable: true, live, definition }, metrics);
    }
    if (youtube) {
      const oembed = new URL(ctx.platforms.youtube.oembedUrl);
      oembed.search = new URLSearchParams({ url, format: 'json' }).toString();
      const { status, body } = await getJson(ctx, oembed.href);
      metrics.oembed_status = status;
      if (status === 404 || status === 401 || status === 403) return result({ method: 'oembed', reachable: false, error: `YouTube says the video is unavailable (HTTP ${status})` }, metrics);
      metrics.title = (body as { title?: string } | null)?.title ?? null;
      return result({ method: 'oembed', reachable: status === 200 }, metrics);
    }
    const twitch = parseTwitchChannel(url);
    const { clientId, clientSecret } = ctx.platforms.twitch;
    if (twitch && clientId && clientSecret) {
      let accessToken: string;
      try {
        accessToken = await twitchAppToken({ fetcher: ctx.fetcher, signal: AbortSignal.timeout(15_000), timeoutMs: 10_000 }, ctx.platforms.twitch);
      } catch {
        return result({ method: 'api', reachable: true, error: 'Twitch refused the client credentials' }, metrics);
      }
      const api = new URL('/helix/streams', ctx.platforms.twitch.apiBaseUrl);
      api.searchParams.set('user_login', twitch);
      const { body } = await getJson(ctx, api.href, { 'client-id': clientId, authorization: `Bearer ${accessToken}` });
      const live = ((body as { data?: unknown[] } | null)?.data ?? []).length > 0;
      metrics.live = live;
      return result({ method: 'api', reachable: true, live }, metrics);
    }
    const vimeo = parseVimeo(url);
    if (vimeo) {
      const oembed = new URL(ctx.platforms.vimeo.oembedUrl);
      oembed.searchParams.set('url', url);
      const { status, body } = await getJson(ctx, oembed.href);
      metrics.oembed_status = status;
      if (status === 404 || status === 403) return result({ method: 'oembed', reachable: false, error: `Vimeo says the video is unavailable (HTTP ${status})` }, metrics);
      metrics.title = (body as { title?: string } | null)?.title ?? null;
      return result({ method: 'oembed', reachable: status === 200 }, metrics);
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
