import { defineEntity, p } from '@mikro-orm/core';

/**
 * A screen an admin approved (or that was known when approval shipped): its name, kind and
 * position are the admin's decision, its group is its device's placement (the programme's). It
 * is known by the SHA-256 of its credential, never the credential itself. Revoked screens stay
 * (proof of play names them); a revoked credential never works again.
 */
export const EnrolledScreenSchema = defineEntity({
  name: 'EnrolledScreen',
  tableName: 'enrolled_screens',
  properties: {
    id: p.integer().primary(),
    /** The browser's lasting id when it paired: its placement (group, own scene) is kept by it. */
    device: p.text().index('enrolled_screens_device_idx'),
    kind: p.text(),
    name: p.text(),
    position: p.smallint().nullable(),
    /** Null for a migrated screen until it connects and is handed its credential. */
    credentialHash: p.text().nullable().unique('enrolled_screens_credential_unique'),
    source: p.text(),
    approvedAt: p.datetime().defaultRaw('now()').onCreate(() => new Date()),
    approvedBy: p.text(),
    revokedAt: p.datetime().nullable(),
    revokedBy: p.text().nullable(),
  },
  checks: [
    { name: 'enrolled_screens_kind_check', expression: "kind in ('wall', 'kiosk')" },
    { name: 'enrolled_screens_source_check', expression: "source in ('paired', 'migrated')" },
    { name: 'enrolled_screens_position_check', expression: "(kind = 'kiosk') = (position is not null)" },
  ],
});
export class EnrolledScreen extends EnrolledScreenSchema.class {}
EnrolledScreenSchema.setClass(EnrolledScreen);

/**
 * A browser waiting for approval: the code it shows, the hash of the credential it holds, what
 * its address asked to be (suggestions the admin sees) and where it asked from. Approved, it
 * becomes an enrolled screen (holding the same credential hash) and is deleted; expired, it is
 * deleted too (the screen asks for a new code).
 */
export const ScreenPairingSchema = defineEntity({
  name: 'ScreenPairing',
  tableName: 'screen_pairings',
  properties: {
    id: p.integer().primary(),
    code: p.text().unique('screen_pairings_code_unique'),
    credentialHash: p.text().unique('screen_pairings_credential_unique'),
    device: p.text().nullable(),
    kind: p.text(),
    position: p.smallint().nullable(),
    name: p.text().nullable(),
    groupSlug: p.text().nullable(),
    address: p.text().index('screen_pairings_address_idx'),
    userAgent: p.text().nullable(),
    createdAt: p.datetime().defaultRaw('now()').onCreate(() => new Date()),
    expiresAt: p.datetime().index('screen_pairings_expires_idx'),
  },
});
export class ScreenPairing extends ScreenPairingSchema.class {}
ScreenPairingSchema.setClass(ScreenPairing);
