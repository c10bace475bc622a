/**
 * Accounts whose sign-ins fail from many addresses at once (login-limits.ts's username-wide
 * threshold): kept in the database so the alert rule `login_failures` sees them from any node.
 * A username that names no account is only counted (`nw_login_usernames_failing_total`): an
 * attacker's made-up names are never stored. Each node writes an account's row at most once every
 * NOTE_EVERY_MS, however many failures arrive.
 */
import type { EntityManager } from '../../db.ts';
import { USERNAME_PATTERN } from '../../shared/api/auth.ts';
import { LOGIN_WINDOW_SECONDS } from './login-limits.ts';

const NOTE_EVERY_MS = 10_000;
const noted = new Map<string, number>();

/** Its failures from every address are over the threshold now (a failure just counted). */
export async function noteFailingAccount(em: EntityManager, username: string, now = Date.now()): Promise<void> {
  // A name no account could have (a NUL, a space, too long) is never sent to the database.
  if (!USERNAME_PATTERN.test(username)) return;
  if (now - (noted.get(username) ?? -Infinity) < NOTE_EVERY_MS) return;
  noted.set(username, now);
  if (noted.size > 10_000) noted.clear(); // made-up names must not grow this for ever
  await em.execute(
    `insert into login_failing_accounts (user_id, since, last_at) select id, ?, ? from admin_users where username = ?
      on conflict (user_id) do update set last_at = excluded.last_at,
        since = case when login_failing_accounts.last_at < excluded.last_at - interval '${LOGIN_WINDOW_SECONDS} seconds' then excluded.since else login_failing_accounts.since end`,
    [new Date(now), new Date(now), username],
  );
}

export interface FailingAccount {
  username: string;
  since: Date;
  lastAt: Date;
}

/** Accounts failing from many addresses within the window before `now` (what the alert rule watches). */
export async function failingAccounts(em: EntityManager, now: number): Promise<FailingAccount[]> {
  const rows = await em.execute<{ username: string; since: Date; last_at: Date }[]>(
    `select u.username, f.since, f.last_at from login_failing_accounts f join admin_users u on u.id = f.user_id where f.last_at > ? order by f.since`,
    [new Date(now - LOGIN_WINDOW_SECONDS * 1000)],
  );
  return rows.map((r) => ({ username: r.username, since: new Date(r.since), lastAt: new Date(r.last_at) }));
}
