/**
 * Direct streams from an M3U/M3U8 playlist in the iptv-org format (`#EXTINF` with tvg-logo and
 * group-title attributes), parsed with @iptv/playlist. A playlist may hold thousands of entries:
 * a run takes at most `max_entries` (and the run's own limit), optionally of some groups only.
 */
import { parseM3U } from '@iptv/playlist';
import { parseHttpUrl } from '../../../shared/streams/url.ts';
import type { DiscoveryAdapter } from './adapter.ts';
import { DiscoveryFailure, request } from './adapter.ts';

/** iptv-org's full index is about 3 MB. */
const MAX_PLAYLIST_BYTES = 16 * 1024 * 1024;

export const playlist: DiscoveryAdapter<'direct'> = async function* (source, ctx) {
  const response = await request(ctx, 'The playlist', source.url!, {
    accept: 'audio/x-mpegurl, application/vnd.apple.mpegurl, text/plain, */*;q=0.5',
    maxBytes: MAX_PLAYLIST_BYTES,
    timeoutMs: 30_000,
  });
  if (response.status !== 200) throw new DiscoveryFailure(`The playlist could not be downloaded (HTTP ${response.status})`);
  const text = response.body.toString('utf8');
  if (!/^\uFEFF?\s*#EXTM3U/.test(text)) throw new DiscoveryFailure('This address is not an M3U playlist (it does not start with #EXTM3U)');
  const groups = new Set(source.config.groups.map((g) => g.toLowerCase()));
  const max = Math.min(source.config.max_entries, ctx.limit ?? Infinity);
  let taken = 0;
  for (const channel of parseM3U(text).channels) {
    if (taken >= max) break;
    const url = channel.url ? parseHttpUrl(channel.url.trim()) : null;
    if (!url) continue;
    const group = channel.groupTitle ?? '';
    if (groups.size > 0 && !group.split(';').some((g) => groups.has(g.trim().toLowerCase()))) continue;
    taken++;
    const logo = channel.tvgLogo ? parseHttpUrl(channel.tvgLogo) : null;
    yield { url: url.href, title: channel.name?.trim() || channel.tvgName?.trim() || null, thumbnail: logo?.href ?? null, hints: group };
  }
};
