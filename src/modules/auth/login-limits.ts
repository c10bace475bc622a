/**
 * Brute force stays expensive without handing strangers a lock (OWASP's guidance on account
 * lockout, ASVS anti-automation). Failed sign-ins are counted per address, per (username,
 * address) pair and per username from every address:
 *
 * - an address that fails too often — at all, or for one username — waits (429, Retry-After);
 * - a username failing from many addresses at once is *slowed*, not closed: browsers that never
 *   signed in to it may try it once every SLOW_SECONDS, all of them together;
 * - a browser that has signed in to it before (trusted-devices.ts) is never slowed or refused
 *   for other addresses' failures: only its own failures count against it.
 *
 * Before: ten failures for a username from anywhere locked it for everyone for 15 minutes.
 */
import type { RateLimiterAbstract, RateLimiterRes } from 'rate-limiter-flexible';
import { forgive, isExhausted, spend } from '../../http/rate-limit.ts';
import { loginFailures, loginRefusals, loginUsernamesUnderAttack } from './auth.metrics.ts';

export const LOGIN_WINDOW_SECONDS = 15 * 60;
/** Failures from one address, any usernames, in the window. */
export const ADDRESS_FAILURES = 20;
/** Failures for one username from one address (or from one trusted browser), in the window. */
export const ADDRESS_USERNAME_FAILURES = 10;
/** Failures for one username from every address, in the window, before it is slowed for unknown browsers. */
export const USERNAME_FAILURES = 20;
/** While slowed: one attempt this often for that username from browsers it does not know. */
export const SLOW_SECONDS = 10;

export interface LoginLimiters {
  byAddress: RateLimiterAbstract;
  byAddressUsername: RateLimiterAbstract;
  byUsername: RateLimiterAbstract;
  slowed: RateLimiterAbstract;
  byDevice: RateLimiterAbstract;
}

export function createLoginLimiters(limiter: (name: string, points: number, durationSeconds: number) => RateLimiterAbstract): LoginLimiters {
  return {
    byAddress: limiter('login-ip', ADDRESS_FAILURES, LOGIN_WINDOW_SECONDS),
    byAddressUsername: limiter('login-ip-user', ADDRESS_USERNAME_FAILURES, LOGIN_WINDOW_SECONDS),
    byUsername: limiter('login-user', USERNAME_FAILURES, LOGIN_WINDOW_SECONDS),
    slowed: limiter('login-user-slowed', 1, SLOW_SECONDS),
    byDevice: limiter('login-device', ADDRESS_USERNAME_FAILURES, LOGIN_WINDOW_SECONDS),
  };
}

export type LoginLimit = 'address' | 'address_username' | 'username_slowed' | 'device';

export interface LoginAttempt {
  address: string;
  /** The normalized username it names; null when it names none (a body that is no sign-in). */
  username: string | null;
  /** The browser's device token when it has signed in to that username before; else null. */
  trustedDevice: string | null;
}

export interface Refusal {
  limit: LoginLimit;
  state: RateLimiterRes;
}

const pair = (a: LoginAttempt) => `${a.username}\u0000${a.address}`;

function refused(limit: LoginLimit, state: RateLimiterRes | null): Refusal | null {
  if (!state) return null;
  loginRefusals.inc({ limit });
  return { limit, state };
}

/** Before the password is checked: whether this attempt may be made now. */
export async function admit(l: LoginLimiters, a: LoginAttempt): Promise<Refusal | null> {
  if (a.trustedDevice !== null) return refused('device', await isExhausted(l.byDevice, a.trustedDevice));
  const address = refused('address', await isExhausted(l.byAddress, a.address));
  if (address || a.username === null) return address;
  const own = refused('address_username', await isExhausted(l.byAddressUsername, pair(a)));
  if (own) return own;
  // Failing from many addresses: one try at a time for the browsers it does not know.
  if (await isExhausted(l.byUsername, a.username)) return refused('username_slowed', await spend(l.slowed, a.username));
  return null;
}

export interface Failure {
  /** The refusal, when this failure used up the caller's own budget. */
  refusal: Refusal | null;
  /** Its username is failing from many addresses now (over USERNAME_FAILURES in the window). */
  usernameFailing: boolean;
}

/** A sign-in failed: counts it. */
export async function failed(l: LoginLimiters, a: LoginAttempt): Promise<Failure> {
  loginFailures.inc();
  if (a.trustedDevice !== null) return { refusal: refused('device', await spend(l.byDevice, a.trustedDevice)), usernameFailing: false };
  const address = await spend(l.byAddress, a.address);
  if (a.username === null) return { refusal: refused('address', address), usernameFailing: false };
  const own = await spend(l.byAddressUsername, pair(a));
  const wasFailing = (await isExhausted(l.byUsername, a.username)) !== null;
  await spend(l.byUsername, a.username);
  const usernameFailing = (await isExhausted(l.byUsername, a.username)) !== null;
  if (usernameFailing && !wasFailing) loginUsernamesUnderAttack.inc();
  return { refusal: refused('address', address) ?? refused('address_username', own), usernameFailing };
}

/** A sign-in succeeded: the caller's own failures for that username are forgotten (not the username's from elsewhere). */
export async function succeeded(l: LoginLimiters, a: LoginAttempt): Promise<void> {
  if (a.trustedDevice !== null) await forgive(l.byDevice, a.trustedDevice);
  if (a.username !== null) await forgive(l.byAddressUsername, pair(a));
}

/** What the refused caller reads: whose limit it is, and (the page adds) how long to wait. */
export function refusalMessage(limit: LoginLimit): string {
  switch (limit) {
    case 'username_slowed':
      return 'Many failed sign-ins for this account from elsewhere: browsers that have not signed in to it before may try once every few seconds';
    case 'device':
      return 'Too many failed sign-ins from this browser; try again later';
    default:
      return 'Too many failed sign-ins from this address; try again later';
  }
}
