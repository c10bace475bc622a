/**
 * What a visitor pastes on /submit (spec §5): the platform guess for a link, and the source
 * address inside a pasted embed code. Shared by the browser (instant listing) and the server
 * (extraction, submissions).
 */
import { detectFormat, parseHttpUrl } from './url.ts';

/** Spec §5 platform guess. */
export type Platform = 'youtube' | 'twitch' | 'vimeo' | 'hls' | 'mp4' | 'unknown';

export function guessPlatform(input: string): Platform {
  const format = detectFormat(input);
  return format === 'youtube' || format === 'twitch' || format === 'vimeo' || format === 'hls' || format === 'mp4' ? format : 'unknown';
}

/** True when the text is markup (an embed code), not a link. */
export function looksLikeEmbedCode(input: string): boolean {
  return /^\s*</.test(input);
}

/**
 * The address an embed code plays: the `src` of its first iframe, video or source tag
 * (http(s) only, entities decoded). The code itself is never stored or rendered.
 */
export function embedSource(code: string): string | null {
  const match = /<(?:iframe|video|source|embed)\b[^>]*?\ssrc\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/i.exec(code);
  const raw = match?.[1] ?? match?.[2] ?? match?.[3];
  if (!raw) return null;
  const decoded = raw.replace(/&amp;/g, '&').replace(/&quot;/g, '"').replace(/&#39;/g, "'").trim();
  const absolute = decoded.startsWith('//') ? `https:${decoded}` : decoded;
  return parseHttpUrl(absolute)?.href ?? null;
}

/** Every http(s) link or embed source in free text (one per line or separated by spaces). */
export function linksIn(text: string): string[] {
  if (looksLikeEmbedCode(text)) {
    const source = embedSource(text);
    return source ? [source] : [];
  }
  const found = text.split(/\s+/).map((part) => parseHttpUrl(part)?.href).filter((u): u is string => !!u);
  return [...new Set(found)];
}
