/** The adapter of each platform: one module each, one interface (adapter.ts). */
import type { DiscoveryPlatform } from '../../../shared/constants.ts';
import type { DiscoveryAdapter } from './adapter.ts';
import { pages } from './pages.ts';
import { playlist } from './playlist.ts';
import { twitch } from './twitch.ts';
import { vimeo } from './vimeo.ts';
import { youtube } from './youtube.ts';

export const ADAPTERS: { [P in DiscoveryPlatform]: DiscoveryAdapter<P> } = {
  youtube,
  twitch,
  vimeo,
  direct: playlist,
  earthcam: pages,
  custom: pages,
};
