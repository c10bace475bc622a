/** Signing in, and the API tokens scripts use: the commands behind /api/auth. */
import type { EntityManager } from '../../db.ts';
import type { Changes } from '../../domain/changes.ts';
import { notFound } from '../../domain/errors.ts';
import type { Actor } from '../../http/context.ts';
import type { Role } from '../../shared/roles.ts';
import { authenticate } from './admins.service.ts';
import { AdminUser, ApiToken } from './auth.entity.ts';
import { createSession } from './identity.ts';
import { generateToken, sha256 } from './passwords.ts';

export interface SignedIn {
  username: string;
  role: Role;
  token: string;
  expiresAt: Date;
  userId: number;
}

/** A new session for these credentials, or null (the same work whether or not the name exists). */
export async function login(em: EntityManager, username: string, password: string): Promise<SignedIn | null> {
  const admin = await authenticate(em, username, password);
  return admin ? signIn(em, admin) : null;
}

/** A new session for an account that proved who it is (its password, or a one-time link it just spent). */
export async function signIn(em: EntityManager, account: AdminUser): Promise<SignedIn> {
  const { token, expiresAt } = await createSession(em, account.id);
  await em.nativeUpdate(AdminUser, { id: account.id }, { lastLoginAt: new Date() });
  return { username: account.username, role: account.role, token, expiresAt, userId: account.id };
}

export function listTokens(em: EntityManager): Promise<ApiToken[]> {
  return em.find(ApiToken, {}, { orderBy: { createdAt: 'desc' } });
}

/** A new token; its secret is returned once and only its hash is kept. */
export async function createToken(em: EntityManager, changes: Changes, input: { name: string; role: Role }, actor: Actor | null): Promise<{ token: ApiToken; secret: string }> {
  const { name, role } = input;
  const creator = actor?.via === 'session' ? await em.findOne(AdminUser, { username: actor.username }) : null;
  const secret = generateToken();
  const token = em.create(ApiToken, { name, role, tokenHash: sha256(secret), createdBy: creator });
  await em.flush();
  changes.push({ type: 'token.created', tokenId: token.id, name });
  return { token, secret };
}

export async function revokeToken(em: EntityManager, changes: Changes, id: number): Promise<void> {
  const token = await em.findOne(ApiToken, { id });
  if (!token) throw notFound(`Token not found: ${id}`);
  await em.nativeDelete(ApiToken, { id });
  changes.push({ type: 'token.revoked', tokenId: id, name: token.name });
}
