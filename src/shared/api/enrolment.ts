/**
 * Enrolment's REST contract (issue 41, src/shared/pairing.ts has its rules): a browser that asks
 * to be a screen requests a pairing code; admins list the waiting ones, approve one by its code
 * (giving it its name, kind, group and position), rename or move an approved screen, and revoke it.
 */
import { z } from 'zod';
import { MAX_SCENE_STREAMS } from '../constants.ts';
import { normalizePairingCode, PAIRING_ALPHABET, PAIRING_CODE_LENGTH } from '../pairing.ts';
import { Id, IsoDate, name } from './common.ts';
import { DeviceId } from './programme.ts';

export const ENROLLED_KINDS = ['wall', 'kiosk'] as const;
export type EnrolledKind = (typeof ENROLLED_KINDS)[number];

const ScreenLabel = name({ max: 80, min: 1, required: 'Name is required' });
const Position = z.number().int().min(1).max(MAX_SCENE_STREAMS);
const CODE_RULE = `Expected a pairing code: ${PAIRING_CODE_LENGTH} characters of ${PAIRING_ALPHABET}`;

/** POST /api/screens/pairings: what the screen's address asks to be (the admin decides; these are suggestions). */
export const PairingRequest = z.strictObject({
  kind: z.enum(ENROLLED_KINDS),
  position: Position.optional().describe("A kiosk's position in its address (/streams/<n>)"),
  name: name({ max: 80, min: 1, required: 'Name is required', description: 'The `?name=` in its address.' }).optional(),
  group: z.string().regex(/^[a-z0-9-]{1,80}$/, 'Expected a group slug (letters, digits and -)').optional().describe('The `?group=` in its address (shown to the admin, never obeyed)'),
  device: DeviceId.optional().describe("The browser's lasting id (its group and own scene are kept by it)"),
});
export type PairingRequest = z.output<typeof PairingRequest>;

export const PairingAnswer = z.strictObject({
  code: z.string().describe('What the screen shows and an admin enters'),
  expires_at: IsoDate,
  credential: z.string().describe('The screen keeps it and sends it with every registration; it is valid once an admin approves the code'),
});
export type PairingAnswer = z.output<typeof PairingAnswer>;

/** A screen waiting for approval, as admins see it. */
export const PairingDto = z.strictObject({
  code: z.string(),
  kind: z.enum(ENROLLED_KINDS),
  position: z.number().int().nullable(),
  name: z.string().nullable(),
  group: z.string().nullable().describe('The group its address names (a suggestion only)'),
  address: z.string().describe('The address the request came from'),
  user_agent: z.string().nullable(),
  first_seen: IsoDate,
  expires_at: IsoDate,
});
export type PairingDto = z.output<typeof PairingDto>;

/** A code as people type it: any case, spaces or dashes between characters. */
const CODE_PATTERN = /^[\s-]*(?:[A-HJKMNP-Za-hjkmnp-z2-9][\s-]*){6}$/;
export const PairingCode = z
  .string()
  .max(20, CODE_RULE)
  .regex(CODE_PATTERN, CODE_RULE)
  .transform((typed) => normalizePairingCode(typed) ?? '')
  .describe(`${CODE_RULE} (any case; spaces and dashes are ignored)`);

/** POST /api/screens/pairings/approve: the admin's decision. */
export const ApproveRequest = z.strictObject({
  code: PairingCode,
  name: ScreenLabel,
  kind: z.enum(ENROLLED_KINDS),
  group_id: Id.nullable().optional().describe('Its screen group (null or absent: none)'),
  position: Position.optional().describe("A kiosk's position (required for a kiosk)"),
});
export type ApproveRequest = z.output<typeof ApproveRequest>;

/** PUT /api/screens/enrolled: rename an approved screen, move it to another group or position. */
export const EnrolledUpdate = z.strictObject({
  id: Id,
  name: ScreenLabel.optional(),
  group_id: Id.nullable().optional(),
  position: Position.optional(),
});
export type EnrolledUpdate = z.output<typeof EnrolledUpdate>;

/** An approved (or revoked) screen. */
export const EnrolledDto = z.strictObject({
  id: z.number().int(),
  name: z.string(),
  kind: z.enum(ENROLLED_KINDS),
  position: z.number().int().nullable(),
  group_id: z.number().int().nullable(),
  device: z.string(),
  approved_at: IsoDate,
  approved_by: z.string(),
  revoked_at: IsoDate.nullable(),
  revoked_by: z.string().nullable(),
  source: z.enum(['paired', 'migrated']).describe('paired: approved by its code; migrated: known when approval shipped (it receives its credential when it next connects)'),
  has_credential: z.boolean().describe('False for a migrated screen that has not connected since'),
});
export type EnrolledDto = z.output<typeof EnrolledDto>;

export const EnrolmentSettingDto = z.strictObject({
  approval: z.boolean().describe('Whether a screen must be approved (SCREEN_APPROVAL); off: every wall and kiosk address is a screen, as on a closed LAN'),
  screens: z.array(EnrolledDto),
});
export type EnrolmentSettingDto = z.output<typeof EnrolmentSettingDto>;
