/** Administrator accounts: the first one at start-up, shell management, and login checks. */
import type { EntityManager } from '../../db.ts';
import type { Logger } from '../../logger.ts';
import type { Role } from '../../shared/roles.ts';
import { conflict, invalid, notFound } from '../../domain/errors.ts';
import { AdminSession, AdminUser } from './auth.entity.ts';
import { USERNAME_PATTERN, USERNAME_RULE } from '../../shared/api/auth.ts';
import { dummyHash, generatePassword, hashPassword, MIN_PASSWORD_LENGTH, verifyPassword } from './passwords.ts';

export function normalizeUsername(username: string): string {
  return username.trim().toLowerCase();
}

export function checkUsername(username: string): void {
  if (!USERNAME_PATTERN.test(username)) {
    throw invalid(`username: ${USERNAME_RULE}`);
  }
}

export function checkPassword(password: string): void {
  if (password.length < MIN_PASSWORD_LENGTH) {
    throw invalid(`password: Use at least ${MIN_PASSWORD_LENGTH} characters`);
  }
}

function checkCredentials(username: string, password: string): void {
  checkUsername(username);
  checkPassword(password);
}

export async function createAdmin(em: EntityManager, rawUsername: string, password: string, role: Role = 'admin'): Promise<AdminUser> {
  const username = normalizeUsername(rawUsername);
  checkCredentials(username, password);
  if (await em.findOne(AdminUser, { username })) throw conflict(`Admin ${username} already exists`);
  const admin = em.create(AdminUser, { username, passwordHash: await hashPassword(password), role });
  await em.flush();
  return admin;
}

/** Sets a new password and ends every session of that admin. */
export async function setAdminPassword(em: EntityManager, rawUsername: string, password: string): Promise<void> {
  const username = normalizeUsername(rawUsername);
  checkCredentials(username, password);
  const admin = await em.findOne(AdminUser, { username });
  if (!admin) throw notFound(`No admin named ${username}`);
  admin.passwordHash = await hashPassword(password);
  admin.disabledAt = null; // the shell is the way back in
  await em.nativeDelete(AdminSession, { user: admin.id });
  await em.flush();
}

export async function deleteAdmin(em: EntityManager, rawUsername: string): Promise<void> {
  const deleted = await em.nativeDelete(AdminUser, { username: normalizeUsername(rawUsername) });
  if (deleted === 0) throw notFound(`No admin named ${rawUsername}`);
}

/**
 * The account these credentials belong to, or null — also for a disabled account or one whose
 * invitation is not accepted yet; the same work whether or not the name exists.
 */
/** Accounts that can sign in now (a password set, not disabled): a restore checks there is one. */
export async function accountsThatCanSignIn(em: EntityManager): Promise<number> {
  return em.count(AdminUser, { passwordHash: { $ne: null }, disabledAt: null });
}

export async function authenticate(em: EntityManager, rawUsername: string, password: string): Promise<AdminUser | null> {
  const admin = await em.findOne(AdminUser, { username: normalizeUsername(rawUsername) });
  const ok = await verifyPassword(admin?.passwordHash ?? (await dummyHash()), password);
  return admin && ok && !admin.disabledAt ? admin : null;
}

/**
 * Start-up: ADMIN_USERNAME (default `admin`) gets ADMIN_PASSWORD when it is set (so changing the
 * variable and restarting resets a lost password). With no admin at all and no password set, a
 * strong one is generated and printed once, so `npm start` works with zero configuration.
 */
export async function ensureInitialAdmin(
  em: EntityManager,
  options: { username: string; password: string | undefined; logger: Logger },
): Promise<{ created: { username: string; password: string } } | null> {
  const username = normalizeUsername(options.username);
  const existing = await em.findOne(AdminUser, { username });
  if (options.password !== undefined) {
    if (!existing) {
      await createAdmin(em, username, options.password);
      options.logger.info({ username }, 'created the admin from ADMIN_USERNAME/ADMIN_PASSWORD');
    } else if (!existing.passwordHash || existing.disabledAt || existing.role !== 'admin' || !(await verifyPassword(existing.passwordHash, options.password))) {
      await setAdminPassword(em, username, options.password);
      // The account the environment names is the way back in: an admin again if it was demoted.
      if (existing.role !== 'admin') await em.nativeUpdate(AdminUser, { id: existing.id }, { role: 'admin' });
      options.logger.warn({ username }, 'ADMIN_PASSWORD changed: the admin password was reset and its sessions ended');
    }
    return null;
  }
  if ((await em.count(AdminUser, {})) > 0) return null;
  const password = generatePassword();
  await createAdmin(em, username, password);
  options.logger.warn(
    { username },
    `First start: created admin '${username}' with password ${password} — shown once. Change it with: npm run admin -- passwd ${username}`,
  );
  return { created: { username, password } };
}
