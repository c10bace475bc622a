import { defineEntity, p } from '@mikro-orm/core';
import { ROLES } from '../../shared/roles.ts';

/**
 * A person who runs the walls (the table keeps its first name): a role, a password stored as an
 * Argon2id PHC string only — none yet while an invitation waits —, and whether it is disabled.
 */
export const AdminUserSchema = defineEntity({
  name: 'AdminUser',
  tableName: 'admin_users',
  properties: {
    id: p.integer().primary(),
    /** Lower-case; unique. */
    username: p.text().unique('admin_users_username_unique'),
    /** Null until the invited person sets one. */
    passwordHash: p.text().nullable(),
    role: p.enum(ROLES).default('admin'),
    createdAt: p.datetime().defaultRaw('now()').onCreate(() => new Date()),
    lastLoginAt: p.datetime().nullable(),
    /** Set: the account cannot sign in and its sessions are gone. */
    disabledAt: p.datetime().nullable(),
    /** Who invited it (null: the first admin, or the shell). */
    invitedBy: p.text().nullable(),
  },
  checks: [
    { name: 'admin_users_username_check', expression: "username ~ '^[a-z0-9._-]{1,64}$'" },
    { name: 'admin_users_role_check', expression: "role in ('viewer', 'operator', 'curator', 'admin')" },
  ],
});

export class AdminUser extends AdminUserSchema.class {}
AdminUserSchema.setClass(AdminUser);

/** A login session. Only the SHA-256 of its token is stored, so a database leak opens nothing. */
export const AdminSessionSchema = defineEntity({
  name: 'AdminSession',
  tableName: 'admin_sessions',
  properties: {
    tokenHash: p.text().primary(),
    user: () => p.manyToOne(AdminUser).deleteRule('cascade').index('admin_sessions_user_idx'),
    createdAt: p.datetime().defaultRaw('now()').onCreate(() => new Date()),
    expiresAt: p.datetime().index('admin_sessions_expires_idx'),
  },
});

export class AdminSession extends AdminSessionSchema.class {}
AdminSessionSchema.setClass(AdminSession);

/** A token for scripts and CI (`Authorization: Bearer …`), created by an admin. */
export const ApiTokenSchema = defineEntity({
  name: 'ApiToken',
  tableName: 'api_tokens',
  properties: {
    id: p.integer().primary(),
    name: p.text(),
    tokenHash: p.text().unique('api_tokens_token_hash_unique'),
    createdBy: () => p.manyToOne(AdminUser).nullable().deleteRule('set null'),
    /** What the token may do (tokens made before roles existed are admin). */
    role: p.enum(ROLES).default('admin'),
    createdAt: p.datetime().defaultRaw('now()').onCreate(() => new Date()),
    lastUsedAt: p.datetime().nullable(),
  },
  checks: [{ name: 'api_tokens_name_check', expression: "btrim(name) <> ''" }],
});

export class ApiToken extends ApiTokenSchema.class {}
ApiTokenSchema.setClass(ApiToken);

/**
 * A one-time link that lets a person set their password: an invitation (the account waits for
 * it) or a reset an admin issued. Only the SHA-256 of its secret is stored; it is spent on use.
 */
export const AccountLinkSchema = defineEntity({
  name: 'AccountLink',
  tableName: 'account_links',
  properties: {
    id: p.integer().primary(),
    tokenHash: p.text().unique('account_links_token_hash_unique'),
    user: () => p.manyToOne(AdminUser).deleteRule('cascade').index('account_links_user_idx'),
    purpose: p.enum(['invite', 'reset'] as const),
    createdBy: p.text(),
    createdAt: p.datetime().defaultRaw('now()').onCreate(() => new Date()),
    expiresAt: p.datetime(),
    usedAt: p.datetime().nullable(),
  },
  checks: [{ name: 'account_links_purpose_check', expression: "purpose in ('invite', 'reset')" }],
});

export class AccountLink extends AccountLinkSchema.class {}
AccountLinkSchema.setClass(AccountLink);

/**
 * A browser that has signed in to an account before (OWASP's "device cookie"): other addresses'
 * failed sign-ins for that account never slow it down (auth/login-limits.ts). Only the SHA-256 of
 * its cookie is stored.
 */
export const TrustedDeviceSchema = defineEntity({
  name: 'TrustedDevice',
  tableName: 'trusted_devices',
  properties: {
    tokenHash: p.text().primary(),
    user: () => p.manyToOne(AdminUser).deleteRule('cascade').index('trusted_devices_user_idx'),
    createdAt: p.datetime().defaultRaw('now()').onCreate(() => new Date()),
    lastUsedAt: p.datetime().defaultRaw('now()').onCreate(() => new Date()),
  },
});

export class TrustedDevice extends TrustedDeviceSchema.class {}
TrustedDeviceSchema.setClass(TrustedDevice);

/** An account whose sign-ins fail from many addresses at once (auth/login-alarms.ts; the alert rule login_failures). */
export const LoginFailingAccountSchema = defineEntity({
  name: 'LoginFailingAccount',
  tableName: 'login_failing_accounts',
  properties: {
    user: () => p.oneToOne(AdminUser).primary().deleteRule('cascade'),
    since: p.datetime().defaultRaw('now()'),
    lastAt: p.datetime().defaultRaw('now()'),
  },
});

export class LoginFailingAccount extends LoginFailingAccountSchema.class {}
LoginFailingAccountSchema.setClass(LoginFailingAccount);
