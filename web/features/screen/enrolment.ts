/**
 * A screen's enrolment in the browser (issue 41, src/shared/pairing.ts): the credential it keeps
 * (localStorage, so it survives restarts and offline starts), the pairing state it shows while
 * an admin has not approved it, and asking the server for a code. An address that asks to be a
 * screen (`?name=`, `?group=`, `/pair`) and holds no credential asks for one when the server says
 * approval is on (its registration is answered as a public viewer); a credential refused
 * (revoked, expired, unknown) is forgotten and a new code asked for.
 */
import { atom, useAtomValue } from 'jotai';
import { useEffect } from 'react';
import { useNavigate } from 'react-router-dom';
import type { PairingState, Registration } from '../../../src/shared/events.ts';
import { ApiError, call } from '../../lib/api.ts';
import { store } from '../../lib/store.ts';

const CREDENTIAL_KEY = 'nature-wall:credential';

/** The credential this browser holds (approved, or waiting for approval), or null. */
export function heldCredential(): string | null {
  try {
    return localStorage.getItem(CREDENTIAL_KEY);
  } catch {
    return null;
  }
}

export function keepCredential(credential: string | null): void {
  try {
    if (credential) localStorage.setItem(CREDENTIAL_KEY, credential);
    else localStorage.removeItem(CREDENTIAL_KEY);
  } catch {
    /* storage blocked: it pairs again after every restart */
  }
}

/** What a screen waiting for approval shows; `problem`: why it has no code right now. */
export interface Pairing {
  state: PairingState | null;
  problem: string | null;
}

/** Null: not pairing (a screen, or a public viewer). */
export const pairingAtom = atom<Pairing | null>(null);

/**
 * Asks for a pairing code as what the address says (the admin decides); true when the browser
 * now holds a credential to register with. Beyond the server's bounds it says why and waits.
 */
export async function requestPairing(registration: Registration): Promise<boolean> {
  if (registration.kind !== 'wall' && registration.kind !== 'kiosk') return false;
  try {
    const answer = await call('screen.pair', {
      body: {
        kind: registration.kind,
        ...(registration.kind === 'kiosk' ? { position: registration.position } : {}),
        ...(registration.name ? { name: registration.name } : {}),
        ...(registration.group && /^[a-z0-9-]{1,80}$/.test(registration.group) ? { group: registration.group } : {}),
        ...(registration.device ? { device: registration.device } : {}),
      },
    });
    keepCredential(answer.credential);
    return true;
  } catch (error) {
    // 409: approval is off on this server after all (every address is a screen); nothing to show.
    if (error instanceof ApiError && error.status === 409) {
      store.set(pairingAtom, null);
      return false;
    }
    store.set(pairingAtom, { state: null, problem: error instanceof Error ? error.message : 'The server could not be reached' });
    throw error;
  }
}

/** The page an approved screen belongs on, when it is not on it (a kiosk page approved as a wall, another position). */
export const movedToAtom = atom<string | null>(null);

/** Screen pages follow what their screen was approved as, without a reload. */
export function useEnrolledPage(): void {
  const to = useAtomValue(movedToAtom, { store });
  const navigate = useNavigate();
  useEffect(() => {
    if (!to) return;
    store.set(movedToAtom, null);
    void navigate(to, { replace: true });
  }, [to, navigate]);
}
