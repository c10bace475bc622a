/**
 * Direct streams from an M3U/M3U8 playlist (iptv-org's format and its relatives), read by our
 * own line reader (m3u.ts) so every entry keeps its headers and metadata. Every entry is
 * yielded, whatever its scheme: the run counts what it cannot use and why. A playlist may hold
 * thousands of entries: a run takes at most `max_entries` (and the run's own limit), optionally
 * of some groups only.
 */
import { parseHttpUrl } from '../../../shared/streams/url.ts';
import { platformRequest } from '../../platforms/request.ts';
import type { DiscoveryAdapter } from './adapter.ts';
import { DiscoveryFailure } from './adapter.ts';
import { isM3u, parseM3u } from './m3u.ts';

/** iptv-org's full index is about 3 MB. */
const MAX_PLAYLIST_BYTES = 16 * 1024 * 1024;

export const playlist: DiscoveryAdapter<'direct'> = async function* (source, ctx) {
  const response = await platformRequest(ctx, 'The playlist', source.url!, {
    accept: 'audio/x-mpegurl, application/vnd.apple.mpegurl, text/plain, */*;q=0.5',
    maxBytes: MAX_PLAYLIST_BYTES,
    timeoutMs: 30_000,
  });
  if (response.status !== 200) throw new DiscoveryFailure(`The playlist could not be downloaded (HTTP ${response.status})`);
  const text = response.body.toString('utf8');
  if (!isM3u(text)) throw new DiscoveryFailure('This address is not an M3U playlist (it does not start with #EXTM3U)');
  const groups = new Set(source.config.groups.map((g) => g.toLowerCase()));
  const max = Math.min(source.config.max_entries, ctx.limit ?? Infinity);
  const entries = parseM3u(text).filter((entry) => groups.size === 0 || (entry.group ?? '').split(';').some((g) => groups.has(g.trim().toLowerCase())));
  ctx.listSize?.(Math.min(entries.length, max));
  for (const entry of entries.slice(0, max)) {
    const logo = entry.attributes['tvg-logo'] ? parseHttpUrl(entry.attributes['tvg-logo']) : null;
    yield {
      url: entry.url,
      title: entry.name ?? (entry.attributes['tvg-name'] || null),
      thumbnail: logo?.href ?? null,
      hints: entry.group ?? undefined,
      headers: entry.headers,
      meta: { group: entry.group, tvgName: entry.attributes['tvg-name'] ?? null, tvgId: entry.attributes['tvg-id'] ?? null },
    };
  }
};
