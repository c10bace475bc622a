/**
 * Twitch Helix with an app access token (client-credentials flow), cached until shortly before
 * it expires; a request answered 401 gets one fresh token and one more try.
 */
import type { SafeResponse } from '../../http/safe-fetch.ts';
import { PlatformFailure, platformRequest, readJson, type RequestContext } from './request.ts';
import type { PlatformSettings } from './settings.ts';

type TwitchSettings = PlatformSettings['twitch'];

interface TokenAnswer {
  access_token?: string;
  expires_in?: number;
  message?: string;
}

const tokens = new Map<string, { token: string; expiresAt: number }>();

export function hasTwitchCredentials(settings: TwitchSettings): boolean {
  return Boolean(settings.clientId && settings.clientSecret);
}

/** An app access token, from the cache unless `fresh`. */
export async function twitchAppToken(ctx: RequestContext, settings: TwitchSettings, fresh = false): Promise<string> {
  const key = `${settings.authBaseUrl} ${settings.clientId}`;
  const known = tokens.get(key);
  if (!fresh && known && known.expiresAt > Date.now() + 60_000) return known.token;
  const response = await platformRequest(ctx, 'Twitch', new URL('/oauth2/token', settings.authBaseUrl).href, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ client_id: settings.clientId!, client_secret: settings.clientSecret!, grant_type: 'client_credentials' }).toString(),
  });
  const answer = readJson<TokenAnswer>(response, 'Twitch');
  if (response.status !== 200 || !answer.access_token) {
    throw new PlatformFailure(`Twitch refused the client credentials (HTTP ${response.status}${answer.message ? `: ${answer.message}` : ''}); check TWITCH_CLIENT_ID and TWITCH_CLIENT_SECRET`);
  }
  tokens.set(key, { token: answer.access_token, expiresAt: Date.now() + (answer.expires_in ?? 3600) * 1000 });
  return answer.access_token;
}

/** GET a Helix path with the app token; a 401 (expired or revoked token) is retried once with a fresh one. */
export async function helixGet(ctx: RequestContext, settings: TwitchSettings, path: string, params: Record<string, string>): Promise<SafeResponse> {
  const url = new URL(path, settings.apiBaseUrl);
  url.search = new URLSearchParams(params).toString();
  const ask = async (fresh: boolean) =>
    platformRequest(ctx, 'Twitch', url.href, { headers: { 'client-id': settings.clientId!, authorization: `Bearer ${await twitchAppToken(ctx, settings, fresh)}` } });
  const response = await ask(false);
  return response.status === 401 ? ask(true) : response;
}
