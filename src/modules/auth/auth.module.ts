/**
 * Who may do what: accounts and their roles, sessions, API tokens, invitation and reset links;
 * the access guard's answer to who is asking, on HTTP and on sockets.
 */
import { z } from 'zod';
import type { EntityManager } from '../../db.ts';
import { denial } from '../../shared/roles.ts';
import { defineModule } from '../module.ts';
import { AccountLink, AdminSession, AdminUser, ApiToken, LoginFailingAccount, TrustedDevice } from './auth.entity.ts';
import { loginFailures, loginRefusals, loginUsernamesUnderAttack } from './auth.metrics.ts';
import { authRouter } from './auth.routes.ts';
import { resolveActor, type Credentials } from './identity.ts';
import { createLoginLimiters } from './login-limits.ts';
import { accessGuard } from './guard.ts';
import { assertEveryRouteDeclared, SOCKET_POLICY } from './policy.ts';
import { teamRouter } from './team.routes.ts';

export interface AuthSettings {
  /** ADMIN_USERNAME / ADMIN_PASSWORD: the first account, made at start when there is none. */
  adminUsername: string;
  adminPassword: string | undefined;
  /** ADMIN_API_TOKEN: a bearer token with admin rights for scripts and CI. */
  adminApiToken: string | undefined;
}

const FIFTEEN_MINUTES = 15 * 60;

export const authModule = defineModule<AuthSettings, undefined>({
  name: 'auth',
  entities: [AdminUser, AdminSession, ApiToken, AccountLink, TrustedDevice, LoginFailingAccount],
  metrics: () => [loginFailures, loginRefusals, loginUsernamesUnderAttack],
  settings: {
    env: {
      ADMIN_USERNAME: z.string().trim().min(1).max(64).default('admin'),
      ADMIN_PASSWORD: z.string().min(12, 'must be at least 12 characters').optional().or(z.literal('').transform(() => undefined)),
      ADMIN_API_TOKEN: z
        .string()
        .min(24, 'must be at least 24 characters')
        .max(512, 'must be at most 512 characters')
        .regex(/^[\x21-\x7E]+$/, 'must be visible ASCII characters (what an Authorization header carries)')
        .optional()
        .or(z.literal('').transform(() => undefined)),
    },
    read: (e) => ({ adminUsername: e.ADMIN_USERNAME as string, adminPassword: e.ADMIN_PASSWORD as string | undefined, adminApiToken: e.ADMIN_API_TOKEN as string | undefined }),
  },
  identity: ({ orm, settings }) => {
    const actorOf = (em: EntityManager, credentials: Credentials) => resolveActor(em, credentials, settings.adminApiToken);
    return {
      actorOf,
      guard(api, allowedOrigins) {
        assertEveryRouteDeclared(api);
        return accessGuard(api, allowedOrigins);
      },
      // The one socket policy (SOCKET_POLICY): screens are public, the console's room needs an account.
      async authorizeSocket(registration, handshake) {
        const needed = SOCKET_POLICY[registration.kind];
        if (needed === 'public') return { ok: true };
        const actor = await actorOf(orm.em.fork(), {
          cookie: handshake.headers.cookie,
          authorization: handshake.headers.authorization ?? (typeof handshake.auth.token === 'string' ? `Bearer ${handshake.auth.token}` : undefined),
        });
        const denied = denial(needed, actor?.role ?? null);
        return denied ? { ok: false, error: denied.error } : { ok: true, sessionHash: actor?.sessionHash, accountId: actor?.userId };
      },
    };
  },
  routes: ({ commands, limits, screens }) => {
    const onSessionEnded = (sessionHash: string) => screens.disconnectSession(sessionHash);
    return [
      authRouter({
        commands,
        loginLimits: createLoginLimiters(limits.limiter),
        onSessionEnded,
      }),
      teamRouter({ commands, linkLimit: limits.limiter('account-link', 30, FIFTEEN_MINUTES), onSessionEnded, onAccountChanged: (accountId) => screens.notifyAccount(accountId) }),
    ];
  },
});
