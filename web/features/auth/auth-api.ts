/** Signing in and out, and asking who we are (REST under /api/auth). */
import type { MeDto, SuccessDto } from '../../../src/shared/api.ts';
import { requestJson } from '../../lib/api.ts';

export const authApi = {
  me: () => requestJson<MeDto>('/auth/me'),
  login: (username: string, password: string) =>
    requestJson<MeDto>('/auth/login', { method: 'POST', body: JSON.stringify({ username, password }) }),
  logout: () => requestJson<SuccessDto>('/auth/logout', { method: 'POST' }),
};

/** Where to go after signing in: a path on this site only, never another site (open redirect). */
export function safeNext(next: string | null): string {
  if (!next || !next.startsWith('/') || next.startsWith('//') || next.startsWith('/\\')) return '/admin';
  return next;
}

/** The sign-in page for a page that needs an administrator. */
export function loginPath(from: string): string {
  return `/login?next=${encodeURIComponent(from)}`;
}
