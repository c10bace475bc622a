/**
 * Twitch: live streams of a category (optionally of a language and tags) through Helix
 * `GET /helix/streams`, with an app access token from the client-credentials flow, paging by
 * `pagination.cursor`. A 429 waits until `Ratelimit-Reset` (up to a minute) and tries again.
 */
import type { DiscoveryAdapter, PlatformSettings, RequestContext } from './adapter.ts';
import { DiscoveryFailure, json, request, waitFromHeaders } from './adapter.ts';

interface TokenAnswer {
  access_token?: string;
  expires_in?: number;
}
interface StreamsAnswer {
  data?: { user_login?: string; user_name?: string; title?: string; game_name?: string; type?: string; thumbnail_url?: string; tags?: string[] | null }[];
  pagination?: { cursor?: string };
}

const MAX_RATE_LIMIT_WAITS = 3;
const MAX_WAIT_MS = 60_000;
const tokens = new Map<string, { token: string; expiresAt: number }>();

/** An app access token (client credentials), cached until shortly before it expires. */
export async function twitchAppToken(ctx: RequestContext, settings: PlatformSettings['twitch'], fresh = false): Promise<string> {
  const key = `${settings.authBaseUrl} ${settings.clientId}`;
  const known = tokens.get(key);
  if (!fresh && known && known.expiresAt > Date.now() + 60_000) return known.token;
  const response = await request(ctx, 'Twitch', new URL('/oauth2/token', settings.authBaseUrl).href, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ client_id: settings.clientId!, client_secret: settings.clientSecret!, grant_type: 'client_credentials' }).toString(),
  });
  const answer = json<TokenAnswer & { message?: string }>(response, 'Twitch');
  if (response.status !== 200 || !answer.access_token) {
    throw new DiscoveryFailure(`Twitch refused the client credentials (HTTP ${response.status}${answer.message ? `: ${answer.message}` : ''}); check TWITCH_CLIENT_ID and TWITCH_CLIENT_SECRET`);
  }
  tokens.set(key, { token: answer.access_token, expiresAt: Date.now() + (answer.expires_in ?? 3600) * 1000 });
  return answer.access_token;
}

export const twitch: DiscoveryAdapter<'twitch'> = async function* (source, ctx) {
  const settings = ctx.platforms.twitch;
  if (!settings.clientId || !settings.clientSecret) throw new DiscoveryFailure('Twitch credentials not configured (set TWITCH_CLIENT_ID and TWITCH_CLIENT_SECRET)');
  const wanted = new Set(source.config.tags.map((t) => t.toLowerCase()));
  let token = await twitchAppToken(ctx, settings, false);
  let cursor: string | undefined;
  let waits = 0;
  let refreshed = false;
  for (let page = 0; page < source.config.max_pages; ) {
    const url = new URL('/helix/streams', settings.apiBaseUrl);
    url.search = new URLSearchParams({
      game_id: source.config.game_id,
      first: '100',
      type: 'live',
      ...(source.config.language ? { language: source.config.language } : {}),
      ...(cursor ? { after: cursor } : {}),
    }).toString();
    const response = await request(ctx, 'Twitch', url.href, { headers: { 'client-id': settings.clientId, authorization: `Bearer ${token}` } });
    if (response.status === 429) {
      const waitMs = waitFromHeaders(response.headers);
      if (++waits > MAX_RATE_LIMIT_WAITS || waitMs > MAX_WAIT_MS) {
        throw new DiscoveryFailure(`Twitch rate limit reached; try again in ${Math.ceil(waitMs / 1000)} s`);
      }
      ctx.logger.info({ source: source.name, waitMs }, 'twitch rate limit: waiting for the reset');
      await ctx.sleep(waitMs, ctx.signal);
      continue;
    }
    if (response.status === 401 && !refreshed) {
      refreshed = true; // the app token expired or was revoked: one fresh token, then give up
      token = await twitchAppToken(ctx, settings, true);
      continue;
    }
    if (response.status !== 200) {
      const message = json<{ message?: string }>(response, 'Twitch').message;
      throw new DiscoveryFailure(`Twitch API error ${response.status}: ${message ?? 'no message'}`);
    }
    const answer = json<StreamsAnswer>(response, 'Twitch');
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
