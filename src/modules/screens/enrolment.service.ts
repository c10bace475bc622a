/**
 * Enrolment (issue 41): which browsers are screens. A browser that asks to be one gets a pairing
 * code and a credential that works once an admin approves the code; the admin gives it its name,
 * kind, group and position. Registrations are admitted here: an approved credential makes the
 * browser that screen (whatever its address says), a waiting one shows its code, a revoked or
 * unknown one is refused, and a browser without one is a public viewer that counts as no screen.
 */
import { randomInt } from 'node:crypto';
import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '../../db.ts';
import type { Changes } from '../../domain/changes.ts';
import { conflict, notFound, unprocessable } from '../../domain/errors.ts';
import type { ApproveRequest, EnrolledDto, EnrolledUpdate, PairingDto, PairingRequest } from '../../shared/api/enrolment.ts';
import {
  PAIRING_ALPHABET,
  PAIRING_CODE_LENGTH,
  PAIRING_CODE_MINUTES,
  PAIRING_WAITING_PER_ADDRESS,
  PAIRING_WAITING_TOTAL,
} from '../../shared/pairing.ts';
import { generateToken, sha256 } from '../auth/passwords.ts';
import { groupsOfDevices, placeScreen } from '../programme/programme.service.ts';
import { EnrolledScreen, ScreenPairing } from './enrolment.entity.ts';

/** A migrated screen is handed its credential when it next connects, within this long of the upgrade. */
export const CLAIM_DAYS = 30;
const DAY_MS = 86_400_000;

/** Over a bound of waiting requests: the route answers 429 with this sentence. */
export class PairingBusy extends Error {}

function newCode(): string {
  let code = '';
  for (let i = 0; i < PAIRING_CODE_LENGTH; i++) code += PAIRING_ALPHABET[randomInt(PAIRING_ALPHABET.length)];
  return code;
}

/** A browser asks to be a screen: a code to show, and the credential it keeps (valid once approved). */
export async function requestPairing(
  tx: EntityManager,
  changes: Changes,
  request: PairingRequest,
  from: { address: string; userAgent: string | null },
  now: number,
): Promise<{ code: string; expires_at: string; credential: string }> {
  // One request at a time: the bounds are counted and kept under this lock (the command's transaction).
  await tx.execute(`select pg_advisory_xact_lock(hashtext('screen-pairings'))`, [], 'run');
  await tx.nativeDelete(ScreenPairing, { expiresAt: { $lte: new Date(now) } });
  const fromHere = await tx.count(ScreenPairing, { address: from.address });
  if (fromHere >= PAIRING_WAITING_PER_ADDRESS) {
    throw new PairingBusy(`${fromHere} screens from this address are already waiting for approval; approve them, or wait until their codes expire (${PAIRING_CODE_MINUTES} minutes)`);
  }
  if ((await tx.count(ScreenPairing, {})) >= PAIRING_WAITING_TOTAL) {
    throw new PairingBusy(`${PAIRING_WAITING_TOTAL} screens are already waiting for approval; try again in a few minutes`);
  }
  const credential = generateToken();
  const expiresAt = new Date(now + PAIRING_CODE_MINUTES * 60_000);
  const taken = new Set((await tx.find(ScreenPairing, {}, { fields: ['code'] })).map((p) => p.code));
  let code = newCode();
  while (taken.has(code)) code = newCode();
  tx.create(ScreenPairing, {
    code,
    credentialHash: sha256(credential),
    device: request.device ?? null,
    kind: request.kind,
    position: request.kind === 'kiosk' ? (request.position ?? null) : null,
    name: request.name ?? null,
    groupSlug: request.group ?? null,
    address: from.address,
    userAgent: from.userAgent,
    expiresAt,
    createdAt: new Date(now),
  });
  await tx.flush();
  changes.push({ type: 'screen.pairing-requested', transient: true });
  return { code, expires_at: expiresAt.toISOString(), credential };
}

export async function waitingPairings(em: EntityManager, now: number): Promise<PairingDto[]> {
  const rows = await em.find(ScreenPairing, { expiresAt: { $gt: new Date(now) } }, { orderBy: { createdAt: 'asc' } });
  return rows.map((p) => ({
    code: p.code,
    kind: p.kind as 'wall' | 'kiosk',
    position: p.position ?? null,
    name: p.name ?? null,
    group: p.groupSlug ?? null,
    address: p.address,
    user_agent: p.userAgent ?? null,
    first_seen: p.createdAt.toISOString(),
    expires_at: p.expiresAt.toISOString(),
  }));
}

export function presentEnrolled(s: EnrolledScreen, groupOf: ReadonlyMap<string, number>): EnrolledDto {
  return {
    id: s.id,
    name: s.name,
    kind: s.kind as 'wall' | 'kiosk',
    position: s.position ?? null,
    group_id: groupOf.get(s.device) ?? null,
    device: s.device,
    approved_at: s.approvedAt.toISOString(),
    approved_by: s.approvedBy,
    revoked_at: s.revokedAt?.toISOString() ?? null,
    revoked_by: s.revokedBy ?? null,
    source: s.source as 'paired' | 'migrated',
    has_credential: s.credentialHash !== null && s.credentialHash !== undefined,
  };
}

export async function listEnrolled(em: EntityManager): Promise<EnrolledDto[]> {
  const screens = await em.find(EnrolledScreen, {}, { orderBy: { revokedAt: 'asc nulls first', name: 'asc', id: 'asc' } });
  const groups = await groupsOfDevices(em, screens.map((s) => s.device));
  return screens.map((s) => presentEnrolled(s, groups));
}

function checkPosition(kind: 'wall' | 'kiosk', position: number | undefined): number | null {
  if (kind === 'kiosk' && position === undefined) throw unprocessable('position: A kiosk shows one position of its scene: choose 1–5');
  return kind === 'kiosk' ? position! : null;
}

/** The admin approves a waiting browser by its code: it becomes the screen they describe. */
export async function approvePairing(em: EntityManager, changes: Changes, input: ApproveRequest, by: string, now: number): Promise<EnrolledScreen> {
  const pairing = await em.findOne(ScreenPairing, { code: input.code }, { lockMode: LockMode.PESSIMISTIC_WRITE });
  if (!pairing) throw notFound(`No screen is waiting with code ${input.code}; check the code on the screen`);
  if (pairing.expiresAt.getTime() <= now) throw conflict(`Code ${input.code} expired; the screen shows a new code — enter that one`);
  const position = checkPosition(input.kind, input.position);
  // A browser without a device id (storage blocked) cannot keep a placement: it is known by its pairing.
  const device = pairing.device ?? `paired-${pairing.id}-${newCode()}`;
  const screen = em.create(EnrolledScreen, {
    device,
    kind: input.kind,
    name: input.name,
    position,
    credentialHash: pairing.credentialHash,
    source: 'paired',
    approvedBy: by,
    approvedAt: new Date(now),
  });
  em.remove(pairing);
  await em.flush();
  // The group is the admin's decision: the device's placement says it (the programme's rules read it).
  await placeScreen(em, changes, { device, group_id: input.group_id ?? null });
  changes.push({ type: 'screen.approved', screenId: screen.id, pairingId: pairing.id, name: screen.name });
  return screen;
}

/** Rename an approved screen, or move it to another group or position. */
export async function updateEnrolled(em: EntityManager, changes: Changes, input: EnrolledUpdate): Promise<EnrolledScreen> {
  const screen = await em.findOne(EnrolledScreen, { id: input.id });
  if (!screen) throw notFound(`No approved screen ${input.id}`);
  if (screen.revokedAt) throw conflict(`"${screen.name}" was revoked; pair it again to use it`);
  if (input.name !== undefined) screen.name = input.name;
  if (input.position !== undefined) {
    if (screen.kind !== 'kiosk') throw unprocessable('position: Only a kiosk shows one position');
    screen.position = input.position;
  }
  await em.flush();
  if (input.group_id !== undefined) await placeScreen(em, changes, { device: screen.device, group_id: input.group_id });
  changes.push({ type: 'screen.changed', screenId: screen.id, name: screen.name });
  return screen;
}

/** Revoke: the credential never works again; the row stays (proof of play names it). */
export async function revokeEnrolled(em: EntityManager, changes: Changes, id: number, by: string, now: number): Promise<EnrolledScreen> {
  const screen = await em.findOne(EnrolledScreen, { id });
  if (!screen) throw notFound(`No approved screen ${id}`);
  if (!screen.revokedAt) {
    screen.revokedAt = new Date(now);
    screen.revokedBy = by;
    await em.flush();
    changes.push({ type: 'screen.revoked', screenId: screen.id, name: screen.name });
  }
  return screen;
}

// ---- admission ----------------------------------------------------------------------------------

export type CredentialLookup =
  | { found: 'screen'; screen: EnrolledScreen }
  | { found: 'waiting'; pairing: ScreenPairing }
  | { found: 'refused'; error: string };

/** What a credential is: an approved screen, a code waiting for approval, or refused (with why). */
export async function lookUpCredential(em: EntityManager, credential: string, now: number): Promise<CredentialLookup> {
  const hash = sha256(credential);
  const screen = await em.findOne(EnrolledScreen, { credentialHash: hash });
  if (screen) return screen.revokedAt ? { found: 'refused', error: `"${screen.name}" was revoked by an administrator; this screen needs approving again` } : { found: 'screen', screen };
  const pairing = await em.findOne(ScreenPairing, { credentialHash: hash });
  if (pairing && pairing.expiresAt.getTime() > now) return { found: 'waiting', pairing };
  if (pairing) return { found: 'refused', error: 'This pairing code expired; the screen shows a new one' };
  return { found: 'refused', error: 'This screen is not approved on this server; it shows a pairing code' };
}

/** Whether a screen known when approval shipped still waits for its credential (within CLAIM_DAYS). */
export async function unclaimedMigrated(em: EntityManager, now: number): Promise<boolean> {
  const since = new Date(now - CLAIM_DAYS * DAY_MS);
  return (await em.count(EnrolledScreen, { source: 'migrated', credentialHash: null, revokedAt: null, approvedAt: { $gt: since } })) > 0;
}

/**
 * A screen known when approval shipped (migrated, no credential yet) that connects with its
 * device id and what it was known as: it is handed a credential, once, within CLAIM_DAYS.
 */
export async function claimMigrated(
  em: EntityManager,
  claim: { device: string; kind: 'wall' | 'kiosk'; position: number | null },
  now: number,
): Promise<{ screen: EnrolledScreen; credential: string } | null> {
  const credential = generateToken();
  const rows = await em.execute<{ id: number }[]>(
    `update enrolled_screens set credential_hash = ?
      where id = (select id from enrolled_screens
        where device = ? and kind = ? and position is not distinct from ? and source = 'migrated' and credential_hash is null
          and revoked_at is null and approved_at > ?::timestamptz
        order by id limit 1 for update skip locked)
      returning id`,
    [sha256(credential), claim.device, claim.kind, claim.position, new Date(now - CLAIM_DAYS * DAY_MS).toISOString()],
    'all',
  );
  const id = rows[0]?.id;
  if (id === undefined) return null;
  const screen = await em.findOneOrFail(EnrolledScreen, { id });
  return { screen, credential };
}
