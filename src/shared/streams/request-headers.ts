/**
 * Headers some streams need (a playlist's `#EXTVLCOPT:http-user-agent` / `http-referrer`). The
 * server's analysis sends them; a browser cannot set either, so a stream that needs them
 * cannot play on a wall and is kept inactive, with this reason shown to the admin.
 */
export interface RequestHeaders {
  user_agent?: string | null | undefined;
  referrer?: string | null | undefined;
}

/** True when a player must send at least one of them. */
export function needsRequestHeaders(headers: RequestHeaders | null | undefined): boolean {
  return Boolean(headers?.user_agent || headers?.referrer);
}

/** The reason a stream that needs headers is inactive, naming which. */
export function headersInactiveReason(headers: RequestHeaders): string {
  const which = [headers.user_agent ? 'user-agent' : null, headers.referrer ? 'referrer' : null].filter(Boolean).join('/');
  return `Needs a ${which} header; cannot play in a browser`;
}

/** Longest header value kept from a playlist. */
const MAX_HEADER = 512;

/**
 * A playlist's headers as they may be stored and sent: printable text only (no CR/LF to smuggle
 * another header), at most 512 characters each; null when nothing is left.
 */
export function cleanRequestHeaders(headers: RequestHeaders | null | undefined): RequestHeaders | null {
  const clean = (value: string | null | undefined) => {
    const text = (value ?? '').replace(/[\u0000-\u001F\u007F]/g, '').trim().slice(0, MAX_HEADER);
    return text || null;
  };
  const result = { user_agent: clean(headers?.user_agent), referrer: clean(headers?.referrer) };
  return needsRequestHeaders(result) ? result : null;
}
