/**
 * Abuse limits for anonymous endpoints (login now; submissions, extraction and ratings use the
 * same helpers). Counters live in memory on a single node, and in PostgreSQL (table
 * rate_limits) or Redis when several nodes share the load, so a limit holds across nodes.
 */
import { createHash } from 'node:crypto';
import type { Context } from 'koa';
import type pg from 'pg';
import { RateLimiterMemory, RateLimiterPostgres, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { AppContext } from './context.ts';
import { HttpError } from './errors.ts';

export type LimiterStore =
  | { kind: 'memory' }
  | { kind: 'postgres'; pool: pg.Pool }
  | { kind: 'redis'; client: unknown };

export function createLimiter(store: LimiterStore, options: { name: string; points: number; durationSeconds: number }): RateLimiterAbstract {
  const common = { keyPrefix: `nw:${options.name}`, points: options.points, duration: options.durationSeconds };
  switch (store.kind) {
    case 'memory':
      return new RateLimiterMemory(common);
    case 'postgres':
      return new RateLimiterPostgres({ ...common, storeClient: store.pool, storeType: 'pool', tableName: 'rate_limits', tableCreated: true });
    case 'redis':
      return new RateLimiterRedis({ ...common, storeClient: store.client, useRedisPackage: true });
  }
}

/**
 * The key a counter is stored under: a hash of what identifies the caller (an address, a
 * username), never the client's own text — the store is a database too, and must not meet a
 * byte it cannot hold.
 */
export const storedKey = (key: string): string => createHash('sha256').update(key, 'utf8').digest('base64url').slice(0, 32);

/** 429 with Retry-After (seconds), from a limiter's answer. */
export function tooManyRequests(ctx: Context, state: RateLimiterRes | null, message: string): HttpError {
  const seconds = Math.max(1, Math.ceil((state?.msBeforeNext ?? 60_000) / 1000));
  ctx.set('Retry-After', String(seconds));
  return new HttpError(429, message);
}

/** True when the key has no points left (without spending one). */
export async function isExhausted(limiter: RateLimiterAbstract, key: string): Promise<RateLimiterRes | null> {
  const state = await limiter.get(storedKey(key));
  return state && state.consumedPoints >= limiter.points ? state : null;
}

/**
 * A public endpoint's limits: visitors are counted per client IP, signed-in admins (session or
 * bearer token) per account, with a budget of their own — an admin triaging a playlist is not
 * a visitor hammering the form, and must not share that visitor's IP budget either.
 */
export interface CallerLimits {
  anonymous: RateLimiterAbstract;
  admin: RateLimiterAbstract;
}

export function createCallerLimits(
  store: LimiterStore,
  options: { name: string; durationSeconds: number; anonymousPoints: number; adminPoints: number },
): CallerLimits {
  return {
    anonymous: createLimiter(store, { name: options.name, points: options.anonymousPoints, durationSeconds: options.durationSeconds }),
    admin: createLimiter(store, { name: `${options.name}-admin`, points: options.adminPoints, durationSeconds: options.durationSeconds }),
  };
}

/** Spends a point of the caller's budget; answers the limiter state when over it. */
export async function spendFor(ctx: AppContext, limits: CallerLimits): Promise<RateLimiterRes | null> {
  const actor = await ctx.state.actor();
  return actor ? spend(limits.admin, `admin:${actor.username}`) : spend(limits.anonymous, ctx.ip || 'unknown');
}

/** Spend a point; answers the limiter state when over the limit. */
export async function spend(limiter: RateLimiterAbstract, key: string): Promise<RateLimiterRes | null> {
  try {
    await limiter.consume(storedKey(key));
    return null;
  } catch (rejection) {
    if (rejection instanceof RateLimiterRes) return rejection;
    throw rejection; // the store failed: let the error handler answer
  }
}

/** Forgets the key's spent points (a login that succeeded clears its username's failures). */
export async function forgive(limiter: RateLimiterAbstract, key: string): Promise<void> {
  await limiter.delete(storedKey(key));
}

/** Limits in one store, by name (what modules are lent to make theirs). */
export interface Limits {
  limiter(name: string, points: number, durationSeconds: number): RateLimiterAbstract;
  callerLimits(name: string, options: { durationSeconds: number; anonymousPoints: number; adminPoints: number }): CallerLimits;
}

export function limitsIn(store: LimiterStore): Limits {
  return {
    limiter: (name, points, durationSeconds) => createLimiter(store, { name, points, durationSeconds }),
    callerLimits: (name, options) => createCallerLimits(store, { name, ...options }),
  };
}
