import Router from '@koa/router';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import { runAs, type CommandDeps } from '../../domain/command.ts';
import { runCommand } from '../../domain/command.ts';
import type { AppContext, AppState } from '../../http/context.ts';
import { spend, tooManyRequests } from '../../http/rate-limit.ts';
import { mount } from '../../http/route.ts';
import { teamEndpoints as api, type AccountDto, type IssuedLinkDto } from '../../shared/api/index.ts';
import type { Account, IssuedLink, LinkPurpose } from './team.service.ts';
import { signIn } from './auth.service.ts';
import { setSessionCookie } from './identity.ts';
import { acceptLink, inspectLink, issueResetLink, inviteAccount, listAccounts, updateAccount } from './team.service.ts';

export interface TeamRouteDeps {
  commands: CommandDeps;
  /** Per client IP: guessing a link's secret is hopeless, but nobody gets to try at speed. */
  linkLimit: RateLimiterAbstract;
  /** Ends the live sockets of sessions that ended (a disabled account, a password set anew). */
  onSessionEnded: (sessionHash: string) => void;
  /** An account's role or state changed: its open consoles are told at once. */
  onAccountChanged?: ((accountId: number) => void) | undefined;
}

export function presentAccount({ user, pending }: Account): AccountDto {
  return {
    id: user.id,
    username: user.username,
    role: user.role,
    status: user.disabledAt ? 'disabled' : user.passwordHash === null ? 'invited' : 'active',
    created_at: user.createdAt.toISOString(),
    last_login_at: user.lastLoginAt ? user.lastLoginAt.toISOString() : null,
    invited_by: user.invitedBy ?? null,
    pending_link: pending && !user.disabledAt ? { purpose: pending.purpose, expires_at: pending.expiresAt.toISOString() } : null,
  };
}

const presentLink = (link: IssuedLink, purpose: LinkPurpose): IssuedLinkDto => ({ token: link.token, expires_at: link.expiresAt.toISOString(), purpose });

export function teamRouter(deps: TeamRouteDeps): Router<AppState> {
  const router = new Router<AppState>();

  mount(router, api.list)(async (ctx) => (await listAccounts(ctx.state.em)).map(presentAccount));

  mount(router, api.invite)(async (ctx, { body }) => {
    const by = (await ctx.state.actor())?.username ?? 'anonymous';
    const { account, link } = await runAs(ctx, deps.commands, (tx, changes) => inviteAccount(tx, changes, body, by));
    return { account: presentAccount(account), link: presentLink(link, 'invite') };
  });

  mount(router, api.update)(async (ctx, { body }) => {
    const actor = await ctx.state.actor();
    const { user, endedSessions } = await runAs(ctx, deps.commands, (tx, changes) => updateAccount(tx, changes, body, { userId: actor?.userId }));
    for (const hash of endedSessions) deps.onSessionEnded(hash);
    deps.onAccountChanged?.(user.id);
    const [account] = await listAccounts(ctx.state.em, user.id);
    return presentAccount(account ?? { user, pending: null });
  });

  mount(router, api.issueLink)(async (ctx, { body }) => {
    const by = (await ctx.state.actor())?.username ?? 'anonymous';
    const { link, user } = await runAs(ctx, deps.commands, (tx, changes) => issueResetLink(tx, changes, body.id, by));
    return presentLink(link, user.passwordHash === null ? 'invite' : 'reset');
  });

  const limited = async (ctx: AppContext) => {
    const over = await spend(deps.linkLimit, ctx.ip || 'unknown');
    if (over) throw tooManyRequests(ctx, over, 'Too many attempts with one-time links; try again later');
  };

  mount(router, api.inspectLink)(async (ctx, { body }) => {
    await limited(ctx);
    const { user, purpose, expiresAt } = await inspectLink(ctx.state.em, body.token);
    return { username: user.username, role: user.role, purpose, expires_at: expiresAt.toISOString() };
  });

  mount(router, api.acceptLink)(async (ctx, { body }) => {
    await limited(ctx);
    // The person acts as themself in the activity log (they are not signed in yet).
    const holder = await inspectLink(ctx.state.em, body.token);
    const { user, endedSessions } = await runCommand(ctx.state.em, deps.commands, holder.user.username, (tx, changes) => acceptLink(tx, changes, body.token, body.password));
    for (const hash of endedSessions) deps.onSessionEnded(hash);
    // The person proved who they are: they are signed in from here, without a separate login.
    setSessionCookie(ctx, await signIn(ctx.state.em, user));
    return { username: user.username };
  });

  return router;
}
