/** Signing in and out, and asking who we are (REST under /api/auth). */
import { call } from '../../lib/api.ts';

export const authApi = {
  me: () => call('auth.me'),
  login: (username: string, password: string) => call('auth.login', { body: { username, password } }),
  logout: () => call('auth.logout'),
};

/** A stand-in origin: `next` is resolved against it and must stay on it. */
const SAME_ORIGIN = 'https://nature-wall.invalid';

/** Where to go after signing in: a path on this site only, never another site (open redirect). */
export function safeNext(next: string | null): string {
  const fallback = '/admin';
  if (!next) return fallback;
  // Read it as a browser would: tabs and newlines vanish, backslashes are slashes.
  const cleaned = next.replace(/[\t\n\r]/g, '').replace(/\\/g, '/');
  if (!cleaned.startsWith('/') || cleaned.startsWith('//')) return fallback;
  try {
    const url = new URL(cleaned, SAME_ORIGIN);
    return url.origin === SAME_ORIGIN ? `${url.pathname}${url.search}${url.hash}` : fallback;
  } catch {
    return fallback;
  }
}

/** The sign-in page for a page that needs an administrator. */
export function loginPath(from: string): string {
  return `/login?next=${encodeURIComponent(from)}`;
}
