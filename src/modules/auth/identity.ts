/**
 * Who is asking: an account through a session cookie or a bearer token (ADMIN_API_TOKEN, an
 * admin, or a token created in the console with its role), or nobody. The same resolution serves HTTP requests and
 * Socket.IO handshakes.
 */
import { parseCookie } from 'cookie';
import type { Context } from 'koa';
import type { EntityManager } from '../../db.ts';
import type { Actor } from '../../http/context.ts';
import { AdminSession, ApiToken } from './auth.entity.ts';
import { generateToken, secretsEqual, sha256 } from './passwords.ts';

export const SESSION_COOKIE = 'nw_session';
export const SESSION_TTL_MS = 7 * 24 * 60 * 60 * 1000;

export type { Actor };

export interface Credentials {
  cookie?: string | undefined;
  authorization?: string | undefined;
}

/** Sets (or, with null, clears) the session cookie on an answer. */
export function setSessionCookie(ctx: Context, session: { token: string; expiresAt: Date } | null): void {
  ctx.cookies.set(SESSION_COOKIE, session?.token ?? '', {
    httpOnly: true,
    sameSite: 'strict',
    secure: ctx.secure,
    expires: session?.expiresAt ?? new Date(0),
    path: '/',
    overwrite: true,
  });
}

export async function createSession(em: EntityManager, userId: number): Promise<{ token: string; expiresAt: Date }> {
  await em.nativeDelete(AdminSession, { expiresAt: { $lt: new Date() } }); // housekeeping on each login
  const token = generateToken();
  const expiresAt = new Date(Date.now() + SESSION_TTL_MS);
  await em.insert(AdminSession, { tokenHash: sha256(token), user: userId, expiresAt });
  return { token, expiresAt };
}

/** Ends the session; answers its hash (for disconnecting its sockets) when there was one. */
export async function endSession(em: EntityManager, token: string): Promise<string | null> {
  const tokenHash = sha256(token);
  const deleted = await em.nativeDelete(AdminSession, { tokenHash });
  return deleted > 0 ? tokenHash : null;
}

/** A bearer token is visible ASCII (RFC 6750 allows less): anything else names no token of ours. */
function bearerOf(authorization: string | undefined): string | null {
  const match = /^Bearer +([\x21-\x7E]{16,512})$/i.exec(authorization ?? '');
  return match ? match[1]! : null;
}

export function sessionTokenOf(cookieHeader: string | undefined): string | null {
  if (!cookieHeader) return null;
  const token = parseCookie(cookieHeader)[SESSION_COOKIE];
  return token && /^[A-Za-z0-9_-]{20,100}$/.test(token) ? token : null;
}

export async function resolveActor(em: EntityManager, credentials: Credentials, envToken: string | undefined): Promise<Actor | null> {
  const bearer = bearerOf(credentials.authorization);
  if (bearer) {
    if (envToken && secretsEqual(bearer, envToken)) return { username: 'api-token', via: 'token', role: 'admin' };
    const token = await em.findOne(ApiToken, { tokenHash: sha256(bearer) });
    if (!token) return null;
    if (!token.lastUsedAt || Date.now() - token.lastUsedAt.getTime() > 60_000) {
      await em.nativeUpdate(ApiToken, { id: token.id }, { lastUsedAt: new Date() });
    }
    return { username: `token:${token.name}`, via: 'token', role: token.role };
  }
  const sessionToken = sessionTokenOf(credentials.cookie);
  if (!sessionToken) return null;
  const tokenHash = sha256(sessionToken);
  // The account's role and state are read on every request: a role change or a disable takes
  // effect on the next one.
  const session = await em.findOne(AdminSession, { tokenHash, expiresAt: { $gt: new Date() }, user: { disabledAt: null } }, { populate: ['user'] });
  return session ? { username: session.user.username, via: 'session', role: session.user.role, userId: session.user.id, sessionHash: tokenHash } : null;
}
