/**
 * The hub's admission of walls and kiosks (src/realtime/admission.ts), from enrolment: with
 * approval on, a credential decides who a browser is — never its address. An approved screen
 * registers as the admin described it (kind, name, position; its group is its device's
 * placement); a browser without a credential is a public viewer: it sees what the address shows
 * and counts as no screen (no device, no group joined, nothing written).
 */
import type { Orm } from '../../db.ts';
import type { Admission, Admit } from '../../realtime/admission.ts';
import type { ScreenRegistration } from '../../realtime/screen-feature.ts';
import { ADMIT_ALL } from '../../realtime/admission.ts';
import { ENROLLED_ROOM, enrolledRoom, PAIRING_ROOM, pairingRoom } from './enrolment.changes.ts';
import type { EnrolledScreen } from './enrolment.entity.ts';
import { claimMigrated, lookUpCredential, unclaimedMigrated } from './enrolment.service.ts';

export interface EnrolmentSettings {
  /** SCREEN_APPROVAL: a screen must be approved (default); off for a kiosk-only venue on a closed LAN. */
  approval: boolean;
}

/** The registration of an approved screen: what the admin decided, and the scene its page's address follows. */
function asEnrolled(registration: ScreenRegistration, screen: EnrolledScreen): ScreenRegistration {
  const sceneSlug = registration.sceneSlug ? { sceneSlug: registration.sceneSlug } : {};
  return screen.kind === 'kiosk'
    ? { kind: 'kiosk', device: screen.device, name: screen.name, position: screen.position ?? 1, ...sceneSlug }
    : { kind: 'wall', device: screen.device, name: screen.name, ...sceneSlug };
}

function admitted(registration: ScreenRegistration, screen: EnrolledScreen, credential?: string): Admission {
  return {
    as: 'screen',
    registration: asEnrolled(registration, screen),
    counted: true,
    enrolled: screen.id,
    rooms: [ENROLLED_ROOM, enrolledRoom(screen.id)],
    answer: { enrolled: { id: screen.id, name: screen.name, kind: screen.kind as 'wall' | 'kiosk', position: screen.position ?? null }, ...(credential ? { credential } : {}) },
  };
}

/**
 * How long a node trusts what it read of an approved credential without reading it again. Any
 * enrolment change clears it on every node at once (the change notice); this bounds a node that
 * missed one.
 */
const REMEMBER_MS = 60_000;
const ENROLMENT_CHANGES: ReadonlySet<string> = new Set(['screen.approved', 'screen.changed', 'screen.revoked']);

export function enrolmentAdmission(deps: { orm: Orm; settings: EnrolmentSettings; now: () => number }): Admit {
  if (!deps.settings.approval) return ADMIT_ALL;
  /**
   * Whether any migrated screen still waits for its credential (only the migration makes them, so
   * once none does, none will): a public viewer's registration then costs no claim query. Read
   * again after REMEMBER_MS while some do.
   */
  let claims: { left: boolean; until: number } | null = null;
  const claimsLeft = async (em: ReturnType<Orm['em']['fork']>, now: number) => {
    if (claims && (!claims.left || claims.until > now)) return claims.left;
    claims = { left: await unclaimedMigrated(em, now), until: now + REMEMBER_MS };
    return claims.left;
  };
  /** Approved screens by credential, as last read: a screen's every reconnect is answered without a query. */
  const approved = new Map<string, { screen: EnrolledScreen; until: number }>();
  const admit: Admit = async (registration) => {
    const em = deps.orm.em.fork();
    const now = deps.now();
    if (registration.credential) {
      const known = approved.get(registration.credential);
      if (known && known.until > now) return admitted(registration, known.screen);
      approved.delete(registration.credential);
      const found = await lookUpCredential(em, registration.credential, now);
      if (found.found === 'screen') approved.set(registration.credential, { screen: found.screen, until: now + REMEMBER_MS });
      if (found.found === 'screen') return admitted(registration, found.screen);
      if (found.found === 'waiting') {
        const { pairing } = found;
        return { as: 'waiting', state: { kind: 'pairing', code: pairing.code, expires_at: pairing.expiresAt.toISOString() }, rooms: [PAIRING_ROOM, pairingRoom(pairing.id)] };
      }
      return { as: 'refused', error: found.error };
    }
    // Known before approval shipped: handed its credential once, as what it was known as.
    if (registration.device && (await claimsLeft(em, now))) {
      const claimed = await claimMigrated(em, { device: registration.device, kind: registration.kind, position: registration.kind === 'kiosk' ? registration.position : null }, now);
      if (claimed) return admitted(registration, claimed.screen, claimed.credential);
    }
    // A public viewer: what its address shows, as nobody in particular.
    const { device: _device, group: _group, ...publicView } = registration;
    return { as: 'screen', registration: publicView, counted: false, enrolled: null, rooms: [], answer: { viewer: true } };
  };
  admit.changed = (changes) => {
    if (changes.some((c) => ENROLMENT_CHANGES.has(c.type))) approved.clear();
  };
  return admit;
}
