/**
 * Where each platform lives and the credentials to ask it with — one home for discovery (which
 * searches them) and quality (which asks them about a stream). Every base URL is configurable,
 * so tests point them at fixture servers on 127.0.0.1.
 */
export interface PlatformSettings {
  youtube: { apiKey: string | undefined; baseUrl: string; oembedUrl: string };
  twitch: { clientId: string | undefined; clientSecret: string | undefined; apiBaseUrl: string; authBaseUrl: string };
  vimeo: { token: string | undefined; apiBaseUrl: string; oembedUrl: string };
}

export const DEFAULT_PLATFORM_SETTINGS: PlatformSettings = {
  youtube: { apiKey: undefined, baseUrl: 'https://www.googleapis.com', oembedUrl: 'https://www.youtube.com/oembed' },
  twitch: { clientId: undefined, clientSecret: undefined, apiBaseUrl: 'https://api.twitch.tv', authBaseUrl: 'https://id.twitch.tv' },
  vimeo: { token: undefined, apiBaseUrl: 'https://api.vimeo.com', oembedUrl: 'https://vimeo.com/api/oembed.json' },
};
