/** Where each video platform lives and the credentials to ask it with: for discovery and for quality. */
import { optionalText, url } from '../../env.ts';
import { defineModule } from '../module.ts';
import { DEFAULT_PLATFORM_SETTINGS, type PlatformSettings } from './settings.ts';

const d = DEFAULT_PLATFORM_SETTINGS;

export const platformsModule = defineModule<PlatformSettings, PlatformSettings>({
  name: 'platforms',
  settings: {
    env: {
      YOUTUBE_API_KEY: optionalText,
      YOUTUBE_API_BASE_URL: url(d.youtube.baseUrl),
      YOUTUBE_OEMBED_URL: url(d.youtube.oembedUrl),
      TWITCH_CLIENT_ID: optionalText,
      TWITCH_CLIENT_SECRET: optionalText,
      TWITCH_API_BASE_URL: url(d.twitch.apiBaseUrl),
      TWITCH_AUTH_BASE_URL: url(d.twitch.authBaseUrl),
      VIMEO_TOKEN: optionalText,
      VIMEO_API_BASE_URL: url(d.vimeo.apiBaseUrl),
      VIMEO_OEMBED_URL: url(d.vimeo.oembedUrl),
    },
    read: (e) => {
      const text = (name: string) => e[name] as string | undefined;
      return {
        youtube: { apiKey: text('YOUTUBE_API_KEY'), baseUrl: text('YOUTUBE_API_BASE_URL')!, oembedUrl: text('YOUTUBE_OEMBED_URL')! },
        twitch: { clientId: text('TWITCH_CLIENT_ID'), clientSecret: text('TWITCH_CLIENT_SECRET'), apiBaseUrl: text('TWITCH_API_BASE_URL')!, authBaseUrl: text('TWITCH_AUTH_BASE_URL')! },
        vimeo: { token: text('VIMEO_TOKEN'), apiBaseUrl: text('VIMEO_API_BASE_URL')!, oembedUrl: text('VIMEO_OEMBED_URL')! },
      };
    },
  },
  setup: ({ settings }) => settings,
});
