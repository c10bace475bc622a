/**
 * Browsers that have signed in before (OWASP's "device cookie", its guidance on blocking brute
 * force without handing strangers a lockout): a successful sign-in leaves a long-lived random
 * cookie bound to the account; a later sign-in to that account from that browser skips the
 * account-wide slow-down that other addresses' failures cause (login-limits.ts). Only its SHA-256
 * is stored; deleting the account forgets its devices; an account keeps its MAX_PER_ACCOUNT
 * most recently used.
 */
import { parseCookie } from 'cookie';
import type { Context } from 'koa';
import type { EntityManager } from '../../db.ts';
import { USERNAME_PATTERN } from '../../shared/api/auth.ts';
import { TrustedDevice } from './auth.entity.ts';
import { generateToken, sha256 } from './passwords.ts';

export const DEVICE_COOKIE = 'nw_device';
const TTL_MS = 365 * 24 * 3600_000;
const MAX_PER_ACCOUNT = 20;

/** The device cookie a request carries, when it is one of ours by shape. */
export function deviceTokenOf(cookieHeader: string | undefined): string | null {
  if (!cookieHeader) return null;
  const token = parseCookie(cookieHeader)[DEVICE_COOKIE];
  return token && /^[A-Za-z0-9_-]{20,100}$/.test(token) ? token : null;
}

/** Whether the browser holding `token` has signed in to `username` before (within a year). */
export async function isTrustedFor(em: EntityManager, token: string | null, username: string): Promise<boolean> {
  // A name no account could have (a NUL, a space, too long) is never sent to the database.
  if (!token || !USERNAME_PATTERN.test(username)) return false;
  const device = await em.findOne(TrustedDevice, { tokenHash: sha256(token), user: { username, disabledAt: null }, lastUsedAt: { $gt: new Date(Date.now() - TTL_MS) } });
  return device !== null;
}

/**
 * After a successful sign-in: the browser's device for this account is used again, or a new one
 * is made; answers the token its cookie must hold.
 */
export async function trustDevice(em: EntityManager, userId: number, token: string | null): Promise<string> {
  const now = new Date();
  if (token) {
    const updated = await em.nativeUpdate(TrustedDevice, { tokenHash: sha256(token), user: userId }, { lastUsedAt: now });
    if (updated > 0) return token;
  }
  const fresh = generateToken();
  await em.insert(TrustedDevice, { tokenHash: sha256(fresh), user: userId, createdAt: now, lastUsedAt: now });
  await em.execute(
    `delete from trusted_devices where user_id = ? and (last_used_at < ? or token_hash not in (select token_hash from trusted_devices where user_id = ? order by last_used_at desc limit ${MAX_PER_ACCOUNT}))`,
    [userId, new Date(now.getTime() - TTL_MS), userId],
  );
  return fresh;
}

export function setDeviceCookie(ctx: Context, token: string): void {
  ctx.cookies.set(DEVICE_COOKIE, token, { httpOnly: true, sameSite: 'strict', secure: ctx.secure, maxAge: TTL_MS, path: '/api/auth', overwrite: true });
}
