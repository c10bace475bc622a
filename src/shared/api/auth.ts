/** Signing in and API tokens. */
import { z } from 'zod';
import { IdBody, IsoDate, line, name, SuccessDto } from './common.ts';
import { ROLES } from '../roles.ts';
import { endpoint } from './contract.ts';
import { ROUTES } from './routes.ts';

/** The shortest password an account may have (the server enforces it; the link's page says it). */
export const MIN_PASSWORD_LENGTH = 12;

/** What an account's name may be (any case: names are kept in lower case). */
export const USERNAME_PATTERN = /^[A-Za-z0-9._-]{1,64}$/;
export const USERNAME_RULE = 'Use 1-64 letters, digits, dots, dashes or underscores';

export const LoginRequest = z.object({
  username: line({ max: 64, min: 1, required: 'Username is required' }),
  password: line({ max: 1024, min: 1, required: 'Password is required', trim: false }),
});
export type LoginRequest = z.infer<typeof LoginRequest>;

export const TokenCreate = z.object({
  name: name({ max: 80, min: 1, required: 'Name is required' }),
  /** What the token may do; scripts made before roles existed get admin. */
  role: z.enum(ROLES, { error: `Use one of ${ROLES.join(', ')}` }).default('admin'),
});

/** Who the caller is; anonymous callers get `authenticated: false` (not an error). */
export const MeDto = z.union([
  z.strictObject({ authenticated: z.literal(true), username: z.string(), via: z.enum(['session', 'token']), role: z.enum(ROLES) }),
  z.strictObject({ authenticated: z.literal(false) }),
]);
export type MeDto = z.output<typeof MeDto>;

export const ApiTokenDto = z.strictObject({
  id: z.number().int(),
  name: z.string(),
  role: z.enum(ROLES),
  created_at: IsoDate,
  last_used_at: IsoDate.nullable(),
});
export type ApiTokenDto = z.output<typeof ApiTokenDto>;

/** The secret is shown once, when the token is created. */
export const CreatedApiTokenDto = ApiTokenDto.extend({ token: z.string() });
export type CreatedApiTokenDto = z.output<typeof CreatedApiTokenDto>;

export const authEndpoints = {
  login: endpoint({
    ...ROUTES['auth.login'],
    summary: 'Sign in (sets the session cookie and a device cookie); failures limited per address and per address and username, a username failing everywhere slowed for browsers that never signed in to it',
    access: 'public',
    body: LoginRequest,
    responses: { 200: MeDto },
    errors: [401, 429],
  }),
  logout: endpoint({ ...ROUTES['auth.logout'], summary: 'Sign out (ends the session and its live sockets)', access: 'public', responses: { 200: SuccessDto } }),
  me: endpoint({ ...ROUTES['auth.me'], summary: 'Who the caller is', access: 'public', responses: { 200: MeDto } }),
  tokens: endpoint({ ...ROUTES['auth.tokens'], summary: 'API tokens (never their secrets)', access: 'admin', responses: { 200: z.array(ApiTokenDto) } }),
  createToken: endpoint({ ...ROUTES['auth.createToken'], summary: 'Create an API token (its secret is shown once)', access: 'admin', body: TokenCreate, responses: { 201: CreatedApiTokenDto }, errors: [409] }),
  revokeToken: endpoint({ ...ROUTES['auth.revokeToken'], summary: 'Revoke an API token', access: 'admin', body: IdBody, responses: { 200: SuccessDto }, errors: [404] }),
};
