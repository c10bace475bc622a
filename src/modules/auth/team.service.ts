/**
 * The team: accounts with roles, invited by a one-time link where the person sets their own
 * password, re-keyed by a reset link an admin issues, disabled (their sessions end at once).
 * The rules that keep a venue from locking itself out live here: the last active admin can be
 * neither demoted nor disabled, and nobody disables their own account.
 */
import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '../../db.ts';
import type { Changes } from '../../domain/changes.ts';
import { conflict, invalid, notFound } from '../../domain/errors.ts';
import { LINK_REFUSALS } from '../../shared/api/team.ts';
import type { Role } from '../../shared/roles.ts';
import { AccountLink, AdminSession, AdminUser } from './auth.entity.ts';
import { checkPassword, checkUsername, normalizeUsername } from './admins.service.ts';
import { generateToken, hashPassword, sha256 } from './passwords.ts';

/** How long an invitation or a reset link may be used. */
export const LINK_TTL_MS = 24 * 60 * 60 * 1000;

export type LinkPurpose = 'invite' | 'reset';

export interface IssuedLink {
  /** The secret: shown once to the admin, who passes it on; only its hash is stored. */
  token: string;
  expiresAt: Date;
}

export interface Account {
  user: AdminUser;
  /** The newest unused, unexpired link, if one waits. */
  pending: { purpose: LinkPurpose; expiresAt: Date } | null;
}

/** Every account (or only the one with id `only`), with the link that waits for it. */
export async function listAccounts(em: EntityManager, only?: number, now = new Date()): Promise<Account[]> {
  const users = await em.find(AdminUser, only === undefined ? {} : { id: only }, { orderBy: { username: 'asc' } });
  const links = await em.find(AccountLink, { usedAt: null, expiresAt: { $gt: now }, ...(only === undefined ? {} : { user: only }) }, { orderBy: { id: 'desc' } });
  const pending = new Map<number, Account['pending']>();
  for (const link of links) if (!pending.has(link.user.id)) pending.set(link.user.id, { purpose: link.purpose, expiresAt: link.expiresAt });
  return users.map((user) => ({ user, pending: pending.get(user.id) ?? null }));
}

async function issueLink(tx: EntityManager, user: AdminUser, purpose: LinkPurpose, by: string, now: Date): Promise<IssuedLink> {
  // A new link replaces any that still waits: only the latest one an admin handed out works.
  await tx.nativeUpdate(AccountLink, { user: user.id, usedAt: null }, { usedAt: now });
  const token = generateToken();
  const expiresAt = new Date(now.getTime() + LINK_TTL_MS);
  tx.create(AccountLink, { tokenHash: sha256(token), user, purpose, createdBy: by, expiresAt });
  await tx.flush();
  return { token, expiresAt };
}

/** A new account waiting for its person: no password until they open the link. */
export async function inviteAccount(tx: EntityManager, changes: Changes, input: { username: string; role: Role }, by: string, now = new Date()): Promise<{ account: Account; link: IssuedLink }> {
  const username = normalizeUsername(input.username);
  checkUsername(username);
  if (await tx.findOne(AdminUser, { username })) throw conflict(`username: ${username} is already taken`);
  const user = tx.create(AdminUser, { username, passwordHash: null, role: input.role, invitedBy: by });
  await tx.flush();
  const link = await issueLink(tx, user, 'invite', by, now);
  changes.push({ type: 'account.invited', accountId: user.id, name: username, role: input.role });
  return { account: { user, pending: { purpose: 'invite', expiresAt: link.expiresAt } }, link };
}

async function activeAdmins(tx: EntityManager): Promise<number> {
  return tx.count(AdminUser, { role: 'admin', disabledAt: null, passwordHash: { $ne: null } });
}

/** True when this account is the last one who could still administer the team. */
async function isLastAdmin(tx: EntityManager, user: AdminUser): Promise<boolean> {
  return user.role === 'admin' && !user.disabledAt && user.passwordHash !== null && (await activeAdmins(tx)) <= 1;
}

export interface AccountUpdate {
  id: number;
  role?: Role | undefined;
  disabled?: boolean | undefined;
}

/**
 * A new role and/or disabled state. Answers the session hashes that ended (a disable): the
 * caller disconnects their live sockets.
 */
export async function updateAccount(tx: EntityManager, changes: Changes, update: AccountUpdate, actor: { userId?: number | undefined }): Promise<{ user: AdminUser; endedSessions: string[] }> {
  const user = await tx.findOne(AdminUser, { id: update.id }, { lockMode: LockMode.PESSIMISTIC_WRITE } /* two admins demoting each other at once */);
  if (!user) throw notFound(`No account ${update.id}`);
  const demoting = update.role !== undefined && update.role !== 'admin';
  const disabling = update.disabled === true && !user.disabledAt;
  if ((demoting || disabling) && (await isLastAdmin(tx, user))) {
    throw conflict(`${user.username} is the last admin: make someone else an admin first`);
  }
  if (disabling && actor.userId === user.id) throw invalid('disabled: You cannot disable your own account');
  let endedSessions: string[] = [];
  if (update.role !== undefined && update.role !== user.role) {
    changes.push({ type: 'account.role-changed', accountId: user.id, name: user.username, role: update.role, from: user.role });
    user.role = update.role;
  }
  if (update.disabled !== undefined && update.disabled !== Boolean(user.disabledAt)) {
    user.disabledAt = update.disabled ? new Date() : null;
    if (update.disabled) {
      const sessions = await tx.find(AdminSession, { user: user.id }, { fields: ['tokenHash'] });
      endedSessions = sessions.map((s) => s.tokenHash);
      await tx.nativeDelete(AdminSession, { user: user.id });
      // A link that still waits would let the person back in.
      await tx.nativeUpdate(AccountLink, { user: user.id, usedAt: null }, { usedAt: new Date() });
    }
    changes.push({ type: update.disabled ? 'account.disabled' : 'account.enabled', accountId: user.id, name: user.username });
  }
  await tx.flush();
  return { user, endedSessions };
}

/** A reset link for someone who lost their password (their password works until it is used). */
export async function issueResetLink(tx: EntityManager, changes: Changes, id: number, by: string, now = new Date()): Promise<{ user: AdminUser; link: IssuedLink }> {
  const user = await tx.findOne(AdminUser, { id });
  if (!user) throw notFound(`No account ${id}`);
  if (user.disabledAt) throw conflict(`${user.username} is disabled: enable the account first`);
  const purpose: LinkPurpose = user.passwordHash === null ? 'invite' : 'reset';
  const link = await issueLink(tx, user, purpose, by, now);
  changes.push({ type: 'account.link-issued', accountId: user.id, name: user.username, purpose });
  return { user, link };
}

async function usableLink(em: EntityManager, token: string, now: Date): Promise<AccountLink> {
  const link = await em.findOne(AccountLink, { tokenHash: sha256(token) }, { populate: ['user'] });
  if (!link) throw invalid(`token: ${LINK_REFUSALS.unknown}`);
  if (link.usedAt) throw invalid(`token: ${LINK_REFUSALS.used}`);
  if (link.expiresAt <= now) throw invalid(`token: ${LINK_REFUSALS.expired}`);
  if (link.user.disabledAt) throw invalid(`token: ${LINK_REFUSALS.disabled}`);
  return link;
}

/** What the link's page shows before the password is chosen. */
export async function inspectLink(em: EntityManager, token: string, now = new Date()): Promise<{ user: AdminUser; purpose: LinkPurpose; expiresAt: Date }> {
  const link = await usableLink(em, token, now);
  return { user: link.user, purpose: link.purpose, expiresAt: link.expiresAt };
}

/** Spends the link: the person's own password, every older session ended. */
export async function acceptLink(tx: EntityManager, changes: Changes, token: string, password: string, now = new Date()): Promise<{ user: AdminUser; endedSessions: string[] }> {
  const link = await usableLink(tx, token, now);
  checkPassword(password);
  // Spent in the same statement that checks it is unspent: two tabs racing get one success.
  const spent = await tx.nativeUpdate(AccountLink, { id: link.id, usedAt: null }, { usedAt: now });
  if (spent === 0) throw invalid(`token: ${LINK_REFUSALS.used}`);
  const user = link.user;
  user.passwordHash = await hashPassword(password);
  const sessions = await tx.find(AdminSession, { user: user.id }, { fields: ['tokenHash'] });
  await tx.nativeDelete(AdminSession, { user: user.id });
  await tx.flush();
  changes.push({ type: link.purpose === 'invite' ? 'account.joined' : 'account.password-reset', accountId: user.id, name: user.username });
  return { user, endedSessions: sessions.map((s) => s.tokenHash) };
}
