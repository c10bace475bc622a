/**
 * Admin passwords: Argon2id at OWASP's recommended parameters (m = 19 MiB, t = 2, p = 1),
 * stored as PHC strings, so a future change of parameters still verifies old hashes.
 * Session and API tokens are random 256-bit values; only their SHA-256 is stored.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { hash, verify, type Algorithm } from '@node-rs/argon2';

export const PASSWORD_PARAMS = {
  algorithm: 2 as Algorithm, // Argon2id (a const enum upstream, so spelled as its value)
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
};

export { MIN_PASSWORD_LENGTH } from '../../shared/api/auth.ts';

export function hashPassword(password: string): Promise<string> {
  return hash(password, PASSWORD_PARAMS);
}

export async function verifyPassword(phc: string, password: string): Promise<boolean> {
  try {
    return await verify(phc, password);
  } catch {
    return false; // a malformed hash verifies nothing
  }
}

let dummy: Promise<string> | undefined;
/** Verifying against this costs what a real check costs: unknown usernames take as long. */
export function dummyHash(): Promise<string> {
  dummy ??= hashPassword(randomBytes(16).toString('hex'));
  return dummy;
}

/** A password for people to copy: 20 characters, about 120 bits. */
export function generatePassword(): string {
  return randomBytes(15).toString('base64url');
}

/** A bearer secret: 256 bits. */
export function generateToken(): string {
  return randomBytes(32).toString('base64url');
}

export function sha256(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

/** Constant-time equality of two secrets of any length. */
export function secretsEqual(a: string, b: string): boolean {
  return timingSafeEqual(Buffer.from(sha256(a), 'hex'), Buffer.from(sha256(b), 'hex'));
}
