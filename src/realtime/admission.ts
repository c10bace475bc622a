/**
 * Which browsers are screens is a feature's business (the screens module's enrolment): the hub
 * hands it every wall and kiosk registration with its handshake and carries out its answer. A
 * screen registers as what the feature says (an approved screen as the admin described it, a
 * public viewer stripped of what would make it one); a browser waiting for approval is answered
 * its pairing state and joins its rooms, nothing else; a refused credential is an error the
 * screen understands (`refused: 'credential'`).
 */
import type { DomainChange } from '../domain/changes.ts';
import type { PairingState, RegistrationAnswer } from '../shared/events.ts';
import type { HubSocket } from './io-server.ts';
import type { ScreenRegistration } from './screen-feature.ts';

export type Admission =
  | {
      as: 'screen';
      registration: ScreenRegistration;
      /** Counted as a screen: listed, journaled, its proof of play and health reports taken. */
      counted: boolean;
      /** The approved screen it is (null: approval is off, or a public viewer). */
      enrolled: number | null;
      rooms: readonly string[];
      /** Sent with the answer: a credential handed over now, what it was approved as. */
      answer?: Pick<RegistrationAnswer, 'credential' | 'enrolled' | 'viewer'>;
    }
  | { as: 'waiting'; state: Omit<PairingState, 'version'>; rooms: readonly string[] }
  | { as: 'refused'; error: string };

export interface Admit {
  (registration: ScreenRegistration, handshake: HubSocket['handshake']): Promise<Admission>;
  /**
   * Committed changes, on every node, before they are pushed: what the admission keeps in memory
   * about them (which credentials are which screens) is forgotten.
   */
  changed?(changes: readonly DomainChange[]): void;
}

/** Without enrolment, every wall and kiosk is a screen, as it says. */
export const ADMIT_ALL: Admit = async (registration) => ({ as: 'screen', registration, counted: true, enrolled: null, rooms: [] });
