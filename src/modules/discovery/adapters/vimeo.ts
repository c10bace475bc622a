/**
 * Vimeo has no public live search: its Live API lists only the token owner's own events. With
 * VIMEO_TOKEN, a source lists the account's live events (`GET /me/live_events`); without one it
 * checks a list of Vimeo links through oEmbed, keeping those that exist (title and thumbnail).
 */
import { parseVimeo } from '../../../shared/streams/url.ts';
import { readJson } from '../../platforms/request.ts';
import { vimeoApiGet, vimeoOembed } from '../../platforms/vimeo.ts';
import type { DiscoveryAdapter } from './adapter.ts';
import { DiscoveryFailure } from './adapter.ts';

interface LiveEventsAnswer {
  data?: { link?: string; title?: string; pictures?: { sizes?: { link?: string; width?: number }[] } }[];
  paging?: { next?: string | null };
}
interface OEmbedAnswer {
  title?: string;
  thumbnail_url?: string;
  author_name?: string;
}

const MAX_EVENT_PAGES = 5;

export const vimeo: DiscoveryAdapter<'vimeo'> = async function* (source, ctx) {
  const settings = ctx.platforms.vimeo;
  if (settings.token) {
    let next: string | null | undefined = '/me/live_events?per_page=50&page=1';
    for (let page = 0; next && page < MAX_EVENT_PAGES; page++) {
      const response = await vimeoApiGet(ctx, settings, next);
      if (response.status !== 200) {
        const error = readJson<{ error?: string; developer_message?: string }>(response, 'Vimeo');
        throw new DiscoveryFailure(`Vimeo API error ${response.status}: ${error.error ?? error.developer_message ?? 'no message'}`);
      }
      const answer = readJson<LiveEventsAnswer>(response, 'Vimeo');
      for (const event of answer.data ?? []) {
        if (!event.link || !parseVimeo(event.link)) continue;
        const sizes = [...(event.pictures?.sizes ?? [])].sort((a, b) => (b.width ?? 0) - (a.width ?? 0));
        yield { url: event.link, title: event.title?.trim() || null, thumbnail: sizes[0]?.link ?? null };
      }
      next = answer.paging?.next;
    }
    return;
  }
  if (source.config.links.length === 0) {
    throw new DiscoveryFailure('Vimeo has no public live search: set VIMEO_TOKEN to list your account\'s live events, or give this source a list of Vimeo links');
  }
  for (const link of source.config.links) {
    if (!parseVimeo(link)) continue;
    const response = await vimeoOembed(ctx, settings, link);
    if (response.status === 404 || response.status === 403) continue; // gone or private: not a find
    if (response.status !== 200) throw new DiscoveryFailure(`Vimeo oEmbed error ${response.status} for ${link}`);
    const answer = readJson<OEmbedAnswer>(response, 'Vimeo');
    yield { url: link, title: answer.title?.trim() || null, thumbnail: answer.thumbnail_url ?? null, hints: answer.author_name };
  }
};
