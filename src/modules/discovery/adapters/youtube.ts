/**
 * YouTube: live videos of a search or a channel, through the Data API's search.list
 * (`type=video&eventType=live`). A page costs 100 of the day's 10,000 quota units, so a run
 * reads at most `max_pages`, answers are kept for 10 minutes (a second run soon after costs
 * nothing) and a 403 quotaExceeded ends the job with a clear error instead of retrying.
 */
import { readJson } from '../../platforms/request.ts';
import { youtubeApiGet, youtubeApiUrl } from '../../platforms/youtube.ts';
import type { DiscoveryAdapter, DiscoveredStream } from './adapter.ts';
import { DiscoveryFailure } from './adapter.ts';

interface SearchAnswer {
  nextPageToken?: string;
  items?: { id?: { videoId?: string }; snippet?: { title?: string; channelTitle?: string; description?: string; thumbnails?: Record<string, { url?: string }> } }[];
}
interface ErrorAnswer {
  error?: { code?: number; message?: string; errors?: { reason?: string }[] };
}

const CACHE_MS = 10 * 60_000;
const answers = new Map<string, { at: number; answer: SearchAnswer }>();

function remember(key: string, answer: SearchAnswer): void {
  answers.set(key, { at: Date.now(), answer });
  if (answers.size > 200) answers.delete(answers.keys().next().value!);
}

export const youtube: DiscoveryAdapter<'youtube'> = async function* (source, ctx) {
  const settings = ctx.platforms.youtube;
  if (!settings.apiKey) throw new DiscoveryFailure('YouTube API key not configured (set YOUTUBE_API_KEY)');
  let pageToken: string | undefined;
  for (let page = 0; page < source.config.max_pages; page++) {
    const url = youtubeApiUrl(settings, 'search', {
      part: 'snippet',
      type: 'video',
      eventType: 'live',
      maxResults: '50',
      ...(source.config.query ? { q: source.config.query } : {}),
      ...(source.config.channel_id ? { channelId: source.config.channel_id } : {}),
      ...(pageToken ? { pageToken } : {}),
    });
    const cacheKey = url.href;
    const cached = answers.get(cacheKey);
    let answer: SearchAnswer;
    if (cached && Date.now() - cached.at < CACHE_MS) {
      answer = cached.answer;
    } else {
      const response = await youtubeApiGet(ctx, settings, url);
      if (response.status !== 200) {
        const error = readJson<ErrorAnswer>(response, 'YouTube').error;
        const reason = error?.errors?.[0]?.reason;
        if (reason === 'quotaExceeded' || reason === 'dailyLimitExceeded') {
          throw new DiscoveryFailure('YouTube API quota exceeded for today; runs work again after the daily reset (midnight Pacific time)');
        }
        if (reason === 'keyInvalid' || response.status === 400 && /api key/i.test(error?.message ?? '')) throw new DiscoveryFailure('YouTube rejected the API key (check YOUTUBE_API_KEY)');
        throw new DiscoveryFailure(`YouTube API error ${response.status}: ${error?.message ?? 'no message'}`);
      }
      answer = readJson<SearchAnswer>(response, 'YouTube');
      remember(cacheKey, answer);
    }
    for (const item of answer.items ?? []) {
      const id = item.id?.videoId;
      if (!id || !/^[\w-]{11}$/.test(id)) continue;
      const thumbs = item.snippet?.thumbnails ?? {};
      const found: DiscoveredStream = {
        url: `https://www.youtube.com/watch?v=${id}`,
        title: item.snippet?.title?.trim() || null,
        thumbnail: thumbs.high?.url ?? thumbs.medium?.url ?? thumbs.default?.url ?? null,
        hints: `${item.snippet?.channelTitle ?? ''} ${item.snippet?.description ?? ''}`,
      };
      yield found;
    }
    pageToken = answer.nextPageToken;
    if (!pageToken) break;
  }
};
