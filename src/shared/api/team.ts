/** The team: accounts with roles, invitations and reset links (admins), and the link's own page (anyone holding it). */
import { z } from 'zod';
import { ROLES } from '../roles.ts';
import { MIN_PASSWORD_LENGTH, USERNAME_PATTERN, USERNAME_RULE } from './auth.ts';
import { Id, IdBody, IsoDate, line } from './common.ts';
import { endpoint } from './contract.ts';
import { ROUTES } from './routes.ts';

export const RoleField = z.enum(ROLES, { error: `Use one of ${ROLES.join(', ')}` });

export const AccountDto = z.strictObject({
  id: z.number().int(),
  username: z.string(),
  role: RoleField,
  /** invited: waiting for its person to set a password; disabled: cannot sign in. */
  status: z.enum(['active', 'invited', 'disabled']),
  created_at: IsoDate,
  last_login_at: IsoDate.nullable(),
  invited_by: z.string().nullable(),
  /** An unused link that still works: when it expires. */
  pending_link: z.strictObject({ purpose: z.enum(['invite', 'reset']), expires_at: IsoDate }).nullable(),
});
export type AccountDto = z.output<typeof AccountDto>;

/** A one-time link's secret, shown once: the console turns it into the address to pass on. */
export const IssuedLinkDto = z.strictObject({ token: z.string(), expires_at: IsoDate, purpose: z.enum(['invite', 'reset']) });
export type IssuedLinkDto = z.output<typeof IssuedLinkDto>;

export const InviteRequest = z.object({
  username: z.string({ error: 'Required' }).trim().regex(USERNAME_PATTERN, USERNAME_RULE),
  role: RoleField,
});

export const AccountUpdate = z
  .object({ id: Id, role: RoleField.optional(), disabled: z.boolean().optional() })
  .refine((u) => u.role !== undefined || u.disabled !== undefined, { message: 'Give a role or disabled' })
  // The refinement in JSON Schema terms, so the document says it too.
  .meta({ anyOf: [{ required: ['role'] }, { required: ['disabled'] }] });

/** Why a one-time link cannot be used, in words for the person holding it (after `token: `). */
export const LINK_REFUSALS = {
  unknown: 'This link is not valid: check that it was copied whole, or ask an admin for a new one',
  used: 'This link has already been used: sign in, or ask an admin for a new one',
  expired: 'This link has expired: ask an admin for a new one',
  disabled: 'This account is disabled: ask an admin',
} as const;

const LinkToken = z
  .string({ error: 'Required' })
  .regex(/^[A-Za-z0-9_-]{20,100}$/, LINK_REFUSALS.unknown)
  .describe(`The secret of a one-time link. A link that cannot be used is refused with why: ${Object.values(LINK_REFUSALS).join('; ')}.`);

export const LinkInspectRequest = z.object({ token: LinkToken });
export const LinkAcceptRequest = z.object({ token: LinkToken, password: line({ max: 1024, min: MIN_PASSWORD_LENGTH, required: 'Required', tooShort: `Use at least ${MIN_PASSWORD_LENGTH} characters`, trim: false }) });

export const LinkInfoDto = z.strictObject({ username: z.string(), role: RoleField, purpose: z.enum(['invite', 'reset']), expires_at: IsoDate });
export type LinkInfoDto = z.output<typeof LinkInfoDto>;

export const teamEndpoints = {
  list: endpoint({ ...ROUTES['team.list'], summary: 'Every account with its role, status, last sign-in and any link waiting', access: 'admin', responses: { 200: z.array(AccountDto) } }),
  invite: endpoint({
    ...ROUTES['team.invite'],
    summary: 'Invite a person: a new account and a one-time link (24 h) where they set their own password',
    access: 'admin',
    body: InviteRequest,
    responses: { 201: z.strictObject({ account: AccountDto, link: IssuedLinkDto }) },
    errors: [409],
  }),
  update: endpoint({
    ...ROUTES['team.update'],
    summary: "Change an account's role, or disable or enable it (its sessions end at once); the last admin stays",
    access: 'admin',
    body: AccountUpdate,
    responses: { 200: AccountDto },
    errors: [404, 409],
  }),
  issueLink: endpoint({
    ...ROUTES['team.issueLink'],
    summary: 'A new one-time link for an account: a password reset (or the invitation again); older links stop working',
    access: 'admin',
    body: IdBody,
    responses: { 201: IssuedLinkDto },
    errors: [404, 409],
  }),
  inspectLink: endpoint({
    ...ROUTES['team.inspectLink'],
    summary: "Whose one-time link this is (for its page); rate-limited per IP",
    access: 'public',
    body: LinkInspectRequest,
    responses: { 200: LinkInfoDto },
    errors: [429],
  }),
  acceptLink: endpoint({
    ...ROUTES['team.acceptLink'],
    summary: 'Set your password with a one-time link (it is spent; older sessions end) and be signed in (sets the session cookie); rate-limited per IP',
    access: 'public',
    body: LinkAcceptRequest,
    responses: { 200: z.strictObject({ username: z.string() }) },
    errors: [429],
  }),
};
