/**
 * Twitch: live streams of a category (optionally of a language and tags) through Helix
 * `GET /helix/streams`, with an app access token from the client-credentials flow, paging by
 * `pagination.cursor` (the Helix client, its token and its one retry on 401 are in
 * modules/platforms). A 429 waits until `Ratelimit-Reset` (up to a minute) and tries again.
 */
import { readJson, waitFromHeaders } from '../../platforms/request.ts';
import { hasTwitchCredentials, helixGet } from '../../platforms/twitch.ts';
import type { DiscoveryAdapter } from './adapter.ts';
import { DiscoveryFailure } from './adapter.ts';

interface StreamsAnswer {
  data?: { user_login?: string; user_name?: string; title?: string; game_name?: string; type?: string; thumbnail_url?: string; tags?: string[] | null }[];
  pagination?: { cursor?: string };
}

const MAX_RATE_LIMIT_WAITS = 3;
const MAX_WAIT_MS = 60_000;

export const twitch: DiscoveryAdapter<'twitch'> = async function* (source, ctx) {
  const settings = ctx.platforms.twitch;
  if (!hasTwitchCredentials(settings)) throw new DiscoveryFailure('Twitch credentials not configured (set TWITCH_CLIENT_ID and TWITCH_CLIENT_SECRET)');
  const wanted = new Set(source.config.tags.map((t) => t.toLowerCase()));
  let cursor: string | undefined;
  let waits = 0;
  for (let page = 0; page < source.config.max_pages; ) {
    const response = await helixGet(ctx, settings, '/helix/streams', {
      game_id: source.config.game_id,
      first: '100',
      type: 'live',
      ...(source.config.language ? { language: source.config.language } : {}),
      ...(cursor ? { after: cursor } : {}),
    });
    if (response.status === 429) {
      const waitMs = waitFromHeaders(response.headers);
      if (++waits > MAX_RATE_LIMIT_WAITS || waitMs > MAX_WAIT_MS) {
        throw new DiscoveryFailure(`Twitch rate limit reached; try again in ${Math.ceil(waitMs / 1000)} s`);
      }
      ctx.logger.info({ source: source.name, waitMs }, 'twitch rate limit: waiting for the reset');
      await ctx.sleep(waitMs, ctx.signal);
      continue;
    }
    if (response.status !== 200) {
      const message = readJson<{ message?: string }>(response, 'Twitch').message;
      throw new DiscoveryFailure(`Twitch API error ${response.status}: ${message ?? 'no message'}`);
    }
    const answer = readJson<StreamsAnswer>(response, 'Twitch');
    for (const stream of answer.data ?? []) {
      const login = stream.user_login?.toLowerCase();
      if (!login || !/^\w{1,25}$/.test(login) || (stream.type && stream.type !== 'live')) continue;
      const tags = (stream.tags ?? []).map((t) => t.toLowerCase());
      if (wanted.size > 0 && !tags.some((t) => wanted.has(t))) continue;
      yield {
        url: `https://www.twitch.tv/${login}`,
        title: stream.title?.trim() || stream.user_name || login,
        thumbnail: stream.thumbnail_url ? stream.thumbnail_url.replace('{width}', '640').replace('{height}', '360') : null,
        hints: `${stream.game_name ?? ''} ${tags.join(' ')}`,
      };
    }
    page++;
    cursor = answer.pagination?.cursor;
    if (!cursor) break;
  }
};
