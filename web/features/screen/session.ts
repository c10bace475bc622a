/**
 * A screen's session: its live link to the scene controller while its page is open. The core
 * registers (again after every reconnect), keeps an estimate of the server's clock, folds every
 * push into the one store (screenMessageAtom: the version rule, and a change waits for its
 * instant), and runs the flip scheduler that shows it then. Everything else a screen does — its
 * reports, proof of play, the state it starts from, the wake lock, new builds, commands — is a
 * part (./parts/index.ts) the session starts and stops. Pages call useScreenConnection with what
 * they register as, and render from useWallScreen / useKioskScreen (./screen-sides.ts).
 */
import { atom } from 'jotai';
import { useLayoutEffect } from 'react';
import { flushSync } from 'react-dom';
import type { Registration, ScreenState } from '../../../src/shared/events.ts';
import { connectScreen } from '../../../src/shared/screen-client.ts';
import { SCREEN_STATE_ELEMENT, type ScreenPageName } from '../../../src/shared/screen-pages.ts';
import { screenTargetOf } from '../../../src/shared/screen-state.ts';
import { store } from '../../lib/store.ts';
import { clockAtom, connectionStatusAtom, followAtom, screenMessageAtom, screenStateAtom } from './atoms.ts';
import { startFlipScheduler } from './flip-scheduler.ts';
import { screenOf, stateKey } from './identity.ts';
import { heldCredential, keepCredential, movedToAtom, pairingAtom, requestPairing } from './enrolment.ts';
import type { RegistrationAnswer } from '../../../src/shared/events.ts';
import { lastState } from './last-state.ts';
import { SCREEN_PARTS } from './parts/index.ts';
import { startParts } from './parts/part.ts';
import { forgetLastReload } from './parts/version-watch.ts';
import { screenRegistration, type ScreenParams } from './registration.ts';

/** How long a screen waits for its first state before it offers Retry. */
export const FIRST_STATE_TIMEOUT_MS = 10_000;

/** The hub refused the registration (or could not answer it): shown as the screen's error. */
export const registrationErrorAtom = atom<string | null>(null);

interface SessionOptions {
  resyncEveryMs?: number;
}

/** One registration's live link (what useScreenConnection keeps while mounted); returns its close. */
function openSession(page: Registration, options: SessionOptions): () => void {
  const screen = screenOf(page);
  store.set(followAtom, screenTargetOf(page));
  store.set(registrationErrorAtom, null);
  const flips = startFlipScheduler();
  store.set(pairingAtom, null);
  let expiry: ReturnType<typeof setTimeout> | undefined;
  let pairingAgain: ReturnType<typeof setTimeout> | undefined;
  let closed = false;
  /** Asks for a code and registers with it; beyond the server's bounds (or while it is away) it tries again. */
  const pair = () => {
    clearTimeout(pairingAgain);
    requestPairing(screen.registration).then(
      (holds) => void (holds && !closed && client.register()),
      (error: unknown) => {
        if (closed) return;
        const wait = (error as { retryAfterSeconds?: number | null }).retryAfterSeconds ?? 30;
        pairingAgain = setTimeout(pair, Math.max(5, wait) * 1000);
      },
    );
  };
  const client = connectScreen({
    registration: screen.registration,
    credential: heldCredential,
    onPairing: (state) => {
      store.set(pairingAtom, { state, problem: null });
      // The code expires: the screen asks for a new one then (the old credential goes with it).
      clearTimeout(expiry);
      expiry = setTimeout(() => {
        keepCredential(null);
        pair();
      }, Math.max(1_000, Date.parse(state.expires_at) - Date.now()));
    },
    onCredential: keepCredential,
    onCredentialRefused: () => {
      // Revoked, expired or unknown here: this browser was (or was becoming) a screen, so it pairs again.
      keepCredential(null);
      store.set(pairingAtom, { state: null, problem: null });
      pair();
    },
    onMessage: (message) => {
      // Rendered in the socket's own task, not queued behind media and timer work: a wall
      // prepares (or, without an instant, shows) a new scene the moment its push arrives. A
      // flip shown but not yet redrawn is finished first.
      flips.settle();
      flushSync(() => store.set(screenMessageAtom, message));
      if (message.type === 'state') store.set(registrationErrorAtom, null);
    },
    onRegistered: (answer) => {
      clearTimeout(expiry);
      store.set(pairingAtom, null);
      // Approval is on and this browser holds no credential: an address that asks to be a screen pairs.
      if (answer.viewer && screen.asksToBeScreen) {
        store.set(pairingAtom, { state: null, problem: null });
        pair();
      }
      followEnrolment(answer, page);
      parts.registered(answer);
    },
    onStatus: (status) => store.set(connectionStatusAtom, status),
    onClock: (estimate) => {
      store.set(clockAtom, estimate);
      window.dispatchEvent(new CustomEvent('nw:clock', { detail: estimate })); // for benchmarks and debugging
    },
    // A screen that shows something keeps showing it while the hub retries for it.
    onError: (error, retrying) => void ((!retrying || store.get(screenStateAtom) === null) && store.set(registrationErrorAtom, error)),
  });
  const { registered, register, report, ask, listen } = client;
  const parts = startParts(SCREEN_PARTS, { ...screen, page, resyncEveryMs: options.resyncEveryMs, registered, register, report, ask, listen });
  return () => {
    closed = true;
    clearTimeout(expiry);
    clearTimeout(pairingAgain);
    parts.stop(flips.stop); // a flip in progress settles before the parts stop: the kept state is what shows
    client.close();
  };
}

/**
 * An approved screen is what the admin made it: a kiosk page approved as a wall (or at another
 * position) moves to the page that shows that, without a reload.
 */
function followEnrolment(answer: RegistrationAnswer, page: Registration): void {
  const enrolled = answer.enrolled;
  if (!enrolled) return;
  if (enrolled.kind === 'kiosk' && (page.kind !== 'kiosk' || page.position !== enrolled.position)) store.set(movedToAtom, `/streams/${enrolled.position}`);
  if (enrolled.kind === 'wall' && page.kind !== 'wall') store.set(movedToAtom, '/');
}

const sessionKey = (registration: Registration, options: SessionOptions) => JSON.stringify([registration, options.resyncEveryMs ?? null]);

/** A session opened before the page rendered (connectEarly), until the page adopts it. */
const earlySessionAtom = atom<{ key: string; close: () => void } | null>(null);

/**
 * Opens the screen page's session from the entry script, before React has rendered the page:
 * the page's mount adopts it when it registers the same way (else it is closed). A cold kiosk
 * gets its state while its page is still being put together.
 */
export function connectEarly(page: ScreenPageName, params: ScreenParams): void {
  const screen = screenRegistration(page, params);
  if (!screen || store.get(earlySessionAtom)) return;
  store.set(earlySessionAtom, { key: sessionKey(screen.registration, screen.options), close: openSession(screen.registration, screen.options) });
  // The page's HTML carries the state its registration will be answered with (web-hints.ts):
  // shown at once, so the players mount on the first render. Provisional: labelled just below
  // its version, so that answer replaces it even when it is the same version.
  // A page the service worker started from its cached shell (the server did not answer) carries
  // none: it shows the state it last showed, until the server is back and answers.
  try {
    const carried = document.getElementById(SCREEN_STATE_ELEMENT)?.textContent;
    if (carried) {
      const state = JSON.parse(carried) as ScreenState;
      store.set(screenMessageAtom, { type: 'state', state: { ...state, version: state.version - 0.5 } });
      return;
    }
  } catch {
    /* unreadable: the registration's answer comes anyway */
  }
  const kept = lastState(stateKey(screen.registration));
  if (kept) store.set(screenMessageAtom, { type: 'state', state: kept });
  // Started from the cached shell: a reload meant to bring this screen onto a new build did not
  // reach it (the server was away or slow), so the next one may go ahead at once when it answers.
  forgetLastReload();
}

/**
 * Connects while mounted. `registration` null means "not yet" (nothing to follow);
 * bump `generation` to drop the connection and register afresh (Retry, Refresh, safety net).
 */
export function useScreenConnection(registration: Registration | null, generation = 0, options: SessionOptions = {}): void {
  const key = registration ? sessionKey(registration, options) : null;

  // A layout effect: the socket opens right after the first commit, not after the first paint.
  useLayoutEffect(() => {
    const early = store.get(earlySessionAtom);
    const adopted = early && early.key === key && generation === 0 ? early.close : null;
    if (early && !adopted) early.close();
    store.set(earlySessionAtom, null);
    if (!key) return;
    return adopted ?? openSession(JSON.parse(key)[0] as Registration, options);
  }, [key, generation]);
}
