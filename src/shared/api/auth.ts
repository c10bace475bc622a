/** Signing in and API tokens. */
import { z } from 'zod';
import { cleanText } from './common.ts';

export const LoginRequest = z.object({
  username: z.string({ error: 'Username is required' }).trim().min(1, 'Username is required').max(64),
  password: z.string({ error: 'Password is required' }).min(1, 'Password is required').max(1024),
});
export type LoginRequest = z.infer<typeof LoginRequest>;

export const TokenCreate = z.object({ name: cleanText(80).min(1, 'Name is required') });

/** Who the caller is; anonymous callers get `authenticated: false` (not an error). */
export type MeDto = { authenticated: true; username: string; via: 'session' | 'token' } | { authenticated: false };

export interface ApiTokenDto {
  id: number;
  name: string;
  created_at: string;
  last_used_at: string | null;
}

/** The secret is shown once, when the token is created. */
export interface CreatedApiTokenDto extends ApiTokenDto {
  token: string;
}
