import { defineEntity, p } from '@mikro-orm/core';

/** An administrator. Passwords are stored as Argon2id PHC strings only. */
export const AdminUserSchema = defineEntity({
  name: 'AdminUser',
  tableName: 'admin_users',
  properties: {
    id: p.integer().primary(),
    /** Lower-case; unique. */
    username: p.text().unique('admin_users_username_unique'),
    passwordHash: p.text(),
    createdAt: p.datetime().defaultRaw('now()').onCreate(() => new Date()),
    lastLoginAt: p.datetime().nullable(),
  },
  checks: [{ name: 'admin_users_username_check', expression: "username ~ '^[a-z0-9._-]{1,64}$'" }],
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
    createdAt: p.datetime().defaultRaw('now()').onCreate(() => new Date()),
    lastUsedAt: p.datetime().nullable(),
  },
  checks: [{ name: 'api_tokens_name_check', expression: "btrim(name) <> ''" }],
});

export class ApiToken extends ApiTokenSchema.class {}
ApiTokenSchema.setClass(ApiToken);
