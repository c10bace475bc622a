/**
 * Which browser origins may talk to us: the server's own origin, plus ALLOWED_ORIGINS. Used by
 * the Socket.IO handshake (no cross-site WebSocket hijacking) and by CSRF checks.
 */
export function isAllowedOrigin(origin: string, host: string | undefined, allowed: readonly string[]): boolean {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  if (host && url.host.toLowerCase() === host.toLowerCase()) return true;
  return allowed.some((entry) => entry === '*' || entry.replace(/\/+$/, '').toLowerCase() === url.origin.toLowerCase());
}
