/**
 * An extended-M3U (IPTV) playlist, read line by line without losing what an entry needs:
 * `#EXTINF` attributes (tvg-*, group-title, user-agent, referrer; quoted values may hold
 * commas), the name after the first unquoted comma, `#EXTGRP`, the request headers a player
 * must send (`#EXTVLCOPT:http-user-agent` / `http-referrer`, `#KODIPROP` stream headers,
 * `#EXTHTTP` JSON, and Kodi's `url|User-Agent=…&Referer=…` suffix), and every address line
 * whatever its scheme, so the caller can count what it cannot use (rtmp, rtsp, mmsh…).
 *
 * Why our own: @iptv/playlist drops #EXTVLCOPT lines and every non-HTTP entry without a
 * trace; m3u-parser-generator splits a name at a comma inside a quoted attribute;
 * iptv-playlist-parser patches String.prototype. The format is small; its edge cases are
 * table-tested in tests/unit/m3u.test.ts.
 */

import type { RequestHeaders } from '../../../shared/streams/request-headers.ts';

/** Both always present here (null: not asked for). */
type Headers = Required<{ [K in keyof RequestHeaders]: string | null }>;

export interface PlaylistEntry {
  /** 1-based line of the address. */
  line: number;
  /** The address line as written (trimmed; Kodi's `|headers` suffix removed). */
  url: string;
  /** The display name after the first unquoted comma of #EXTINF, if any. */
  name: string | null;
  /** #EXTINF attributes, keys lower-cased (`tvg-id`, `tvg-name`, `tvg-logo`, `group-title`…). */
  attributes: Record<string, string>;
  /** group-title, or #EXTGRP when there is none. */
  group: string | null;
  /** Headers a player must send; both null when none are asked for. */
  headers: Headers;
}

/** A file is a playlist when it starts with #EXTM3U (after a byte-order mark or blank space). */
export function isM3u(text: string): boolean {
  return /^\uFEFF?\s*#EXTM3U/i.test(text);
}

/** `key="value"` and `key=value` pairs, in order; a quoted value may hold commas and spaces. */
function readAttributes(text: string): Record<string, string> {
  const attributes: Record<string, string> = {};
  for (const match of text.matchAll(/([A-Za-z0-9_:.-]+)=(?:"([^"]*)"|'([^']*)'|([^\s"',]+))/g)) {
    attributes[match[1]!.toLowerCase()] = (match[2] ?? match[3] ?? match[4] ?? '').trim();
  }
  return attributes;
}

/** The index of the first comma outside double quotes, or -1. */
function nameComma(text: string): number {
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') quoted = !quoted;
    else if (c === ',' && !quoted) return i;
  }
  return -1;
}

/** `User-Agent=…&Referer=…` (Kodi's stream headers and `url|…` suffix; values may be %-encoded). */
function headerPairs(text: string, into: Headers): void {
  for (const pair of text.split('&')) {
    const at = pair.indexOf('=');
    if (at < 1) continue;
    const key = pair.slice(0, at).trim().toLowerCase();
    let value = pair.slice(at + 1).trim();
    try {
      value = decodeURIComponent(value);
    } catch {
      // kept as written
    }
    if (!value) continue;
    if (key === 'user-agent') into.user_agent = value;
    if (key === 'referer' || key === 'referrer') into.referrer = value;
  }
}

function blankEntry(): Omit<PlaylistEntry, 'line' | 'url'> {
  return { name: null, attributes: {}, group: null, headers: { user_agent: null, referrer: null } };
}

export function parseM3u(text: string): PlaylistEntry[] {
  const entries: PlaylistEntry[] = [];
  let pending = blankEntry();
  const lines = text.replace(/^\uFEFF/, '').split(/\r\n|\r|\n/);
  lines.forEach((raw, index) => {
    const line = raw.trim();
    if (!line) return;
    if (line.startsWith('#')) {
      const colon = line.indexOf(':');
      const directive = (colon === -1 ? line : line.slice(0, colon)).toUpperCase();
      const value = colon === -1 ? '' : line.slice(colon + 1).trim();
      if (directive === '#EXTINF') {
        pending = blankEntry();
        const comma = nameComma(value);
        pending.attributes = readAttributes(comma === -1 ? value : value.slice(0, comma));
        const name = comma === -1 ? '' : value.slice(comma + 1).trim();
        pending.name = name || null;
        pending.group = pending.attributes['group-title'] || pending.group;
        const a = pending.attributes;
        pending.headers.user_agent = a['user-agent'] || a['http-user-agent'] || null;
        pending.headers.referrer = a['referrer'] || a['referer'] || a['http-referrer'] || a['http-referer'] || null;
      } else if (directive === '#EXTGRP') {
        pending.group ??= value || null;
      } else if (directive === '#EXTVLCOPT') {
        const [key, ...rest] = value.split('=');
        const option = key!.trim().toLowerCase();
        const setting = rest.join('=').trim().replace(/^"|"$/g, '');
        if (!setting) return;
        if (option === 'http-user-agent') pending.headers.user_agent = setting;
        if (option === 'http-referrer' || option === 'http-referer') pending.headers.referrer = setting;
      } else if (directive === '#KODIPROP') {
        const match = /^inputstream\.adaptive\.(?:stream|manifest)_headers=(.*)$/i.exec(value);
        if (match) headerPairs(match[1]!, pending.headers);
      } else if (directive === '#EXTHTTP') {
        try {
          const parsed = JSON.parse(value) as Record<string, unknown>;
          const text = Object.entries(parsed)
            .filter(([, v]) => typeof v === 'string')
            .map(([k, v]) => `${k}=${encodeURIComponent(v as string)}`)
            .join('&');
          headerPairs(text, pending.headers);
        } catch {
          // not JSON: ignored like any unknown directive
        }
      }
      return;
    }
    // An address line ends the entry.
    const bar = line.indexOf('|');
    const url = bar === -1 ? line : line.slice(0, bar).trim();
    if (bar !== -1) headerPairs(line.slice(bar + 1), pending.headers);
    entries.push({ line: index + 1, url, ...pending });
    pending = blankEntry();
  });
  return entries;
}
