/** Helpers for access tests: an admin with a known password, and cookie logins. */
import type { TestApp } from '../support/app.ts';
import { createAdmin } from '../../src/modules/auth/admins.service.ts';

export const ADMIN = { username: 'curator', password: 'correct horse battery staple' };

export async function withAdmin(app: TestApp): Promise<void> {
  const em = app.orm.em.fork();
  await createAdmin(em, ADMIN.username, ADMIN.password);
}

/** Logs in and answers the `nw_session=...` pair for a Cookie header, plus the raw Set-Cookie. */
export async function login(app: TestApp, credentials = ADMIN, headers: Record<string, string> = {}) {
  const res = await app.anonymous<Record<string, unknown>>('POST', '/api/auth/login', credentials, { headers });
  const setCookie = res.headers.get('set-cookie') ?? '';
  const cookie = /nw_session=[^;]+/.exec(setCookie)?.[0] ?? '';
  return { res, cookie, setCookie };
}
