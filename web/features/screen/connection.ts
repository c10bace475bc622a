/**
 * A screen's live link to the scene controller: register (again after every reconnect), keep an
 * estimate of the server's clock, fold every push into the one store through screenMessageAtom
 * (version rule; a change waits for its instant, then flip-scheduler.ts shows it), and report
 * playback health and the clock. Screens call useScreenConnection with what they show; what they
 * render comes from screenStateAtom, and what they prepare from waitingStateAtom.
 */
import { atom } from 'jotai';
import { useLayoutEffect } from 'react';
import { flushSync } from 'react-dom';
import type { Registration } from '../../../src/shared/events.ts';
import { later } from '../../lib/later.ts';
import { openSocket } from '../../lib/socket.ts';
import { screenTargetOf } from '../../../src/shared/screen-state.ts';
import { store } from '../../lib/store.ts';
import type { ClockEstimate } from '../../../src/shared/clock.ts';
import type { ClockReport, HealthReport, ScreenState } from '../../../src/shared/events.ts';
import { clockAtom, connectionStatusAtom, followAtom, screenMessageAtom, screenStateAtom } from './atoms.ts';
import { lastFlipAtom, settlePendingFlip, startFlipScheduler } from './flip-scheduler.ts';
import { createHealthReporter } from './health-reporter.ts';
import { IDENTIFY_MS, identifyAtom, screenDevice, screenGroup, screenName } from './identity.ts';
import { keepLastState, lastState } from './last-state.ts';
import { recordPlays } from './plays.ts';
import { healthReportAtom } from './playback.ts';
import { offlineStartAtom } from '../../lib/service-worker.ts';
import { screenRegistration, type ScreenParams } from './registration.ts';
import { forgetLastReload, watchVersion } from './version-watch.ts';
import { holdWakeLock } from './wake-lock.ts';
import { SCREEN_STATE_ELEMENT, type ScreenPageName } from '../../../src/shared/screen-pages.ts';

/** How long after a change a screen writes what it shows to its storage (off the flip's frame). */
const KEEP_AFTER_MS = 1_000;

/** How long a screen waits for its first state before it offers Retry. */
export const FIRST_STATE_TIMEOUT_MS = 10_000;

/** What admins see of this screen's clock: how far its own clock (Date) is from the server's, and the bound. */
function clockReport(estimate: ClockEstimate): ClockReport {
  return { offset_ms: Math.round(performance.now() + estimate.offsetMs - Date.now()), error_ms: Math.ceil(estimate.errorMs * 10) / 10 };
}

/** The hub refused the registration (or could not answer it): shown as the screen's error. */
export const registrationErrorAtom = atom<string | null>(null);

interface SessionOptions {
  resyncEveryMs?: number;
}

/** One registration's live link (what useScreenConnection keeps while mounted); returns its close. */
function openSession(given: Registration, options: SessionOptions): () => void {
  const device = screenDevice();
  const name = screenName(given.name);
  const group = given.kind === 'wall' || given.kind === 'kiosk' ? screenGroup() : undefined;
  const reg = { ...given, ...(device ? { device } : {}), ...(name ? { name } : {}), ...(group ? { group } : {}) } as Registration;
  store.set(followAtom, screenTargetOf(given));
  store.set(registrationErrorAtom, null);
  const stopFlips = startFlipScheduler();
  const releaseWakeLock = holdWakeLock();
  const versions = watchVersion(() => client.socket.connected);
  let clock: ClockReport | undefined;
  const report = (): HealthReport => {
    const flip = store.get(lastFlipAtom);
    return {
      ...store.get(healthReportAtom),
      offline_start: store.get(offlineStartAtom),
      ...(clock ? { clock } : {}),
      // Rounded: a report that only moved by a fraction of a millisecond is no news.
      ...(flip ? { flip: { render_ms: Math.round(flip.renderedAt - flip.frameTime), late_ms: flip.lateMs === null ? null : Math.round(flip.lateMs) } } : {}),
    };
  };
  const client = openSocket({
    registration: reg,
    onMessage: (message) => {
      // Rendered in the socket's own task, not queued behind media and timer work: a wall
      // prepares (or, without an instant, shows) a new scene the moment its push arrives. A
      // flip shown but not yet redrawn is finished first.
      settlePendingFlip();
      flushSync(() => store.set(screenMessageAtom, message));
      if (message.type === 'state') {
        store.set(registrationErrorAtom, null);
        reporter.resend(); // a fresh registration starts with no health on the hub
        plays?.flush(); // and what it showed while away goes now
      }
    },
    onStatus: (status) => store.set(connectionStatusAtom, status),
    onBuild: (build) => versions.serverBuild(build),
    onClock: (estimate) => {
      store.set(clockAtom, estimate);
      window.dispatchEvent(new CustomEvent('nw:clock', { detail: estimate })); // for benchmarks and debugging
      clock = clockReport(estimate);
      reporter.update(report());
    },
    onCommand: (command) => {
      if (command === 'reload') window.location.reload();
      else store.set(identifyAtom, { name: reg.name ?? 'Nature Wall screen', until: Date.now() + IDENTIFY_MS });
    },
    // A screen that shows something keeps showing it while the hub retries for it.
    onError: (error, retrying) => {
      if (!retrying || store.get(screenStateAtom) === null) store.set(registrationErrorAtom, error);
    },
  });
  const reporter = createHealthReporter({ send: (report) => client.reportHealth(report) });
  // Proof of play (plays.ts): kiosks, and walls installed as screens — their address names them
  // (?name=) or puts them in a group (?group=) — record what they show; a visitor's browser on
  // the public viewer does not.
  const installed = given.kind === 'kiosk' || (given.kind === 'wall' && (group !== undefined || new URLSearchParams(location.search).has('name')));
  // Its records are kept under the screen the server counts them for (a wall, or a kiosk's position), whatever address it came by.
  const playsKey = given.kind === 'kiosk' ? `kiosk-${given.position}` : 'wall';
  const plays = device && installed ? recordPlays(client, playsKey) : null;
  const playingStreams = () => new Set(store.get(healthReportAtom).streams.filter((s) => s.state === 'playing').map((s) => s.stream_id));
  plays?.playing(playingStreams());
  plays?.show(store.get(screenStateAtom));
  const unsubscribeShown = plays ? store.sub(screenStateAtom, () => plays.show(store.get(screenStateAtom))) : () => {};
  const unsubscribePlaying = plays ? store.sub(healthReportAtom, () => plays.playing(playingStreams())) : () => {};
  reporter.update(report());
  const unsubscribeHealth = store.sub(healthReportAtom, () => reporter.update(report()));
  const unsubscribeFlips = store.sub(lastFlipAtom, () => reporter.update(report()));
  const unsubscribeOffline = store.sub(offlineStartAtom, () => reporter.update(report()));
  // What it shows is what it starts from next time, should its server be away then (written
  // after the flip's frame, not in it).
  const keep = later(() => keepLastState(stateKey(given), store.get(screenStateAtom)), KEEP_AFTER_MS);
  keep.ask();
  const unsubscribeKept = store.sub(screenStateAtom, keep.ask);
  window.addEventListener('pagehide', keep.now);
  // Safety net (spec: kiosks refetch every 30 minutes): register again on the open socket.
  // The answer goes through the version rule, so an unchanged state is no re-render.
  const resync = options.resyncEveryMs
    ? setInterval(() => {
        if (!client.socket.connected) return;
        client.socket.emit('screen:register', reg, (result) => {
          if ('data' in result && result.data.build) versions.serverBuild(result.data.build);
          if ('data' in result) store.set(screenMessageAtom, { type: 'state', state: result.data });
        });
      }, options.resyncEveryMs)
    : undefined;
  return () => {
    clearInterval(resync);
    stopFlips();
    versions.stop();
    releaseWakeLock();
    unsubscribeHealth();
    unsubscribeFlips();
    unsubscribeOffline();
    unsubscribeKept();
    window.removeEventListener('pagehide', keep.now);
    keep.now();
    unsubscribeShown();
    unsubscribePlaying();
    plays?.stop();
    reporter.stop();
    client.close();
  };
}

/** Where a screen's last state is kept: its page's registration (what it follows) and the group in its address, not its device or name. */
const stateKey = (registration: Registration) => JSON.stringify([registration, screenGroup() ?? null]);

const sessionKey = (registration: Registration, options: SessionOptions) => JSON.stringify([registration, options.resyncEveryMs ?? null]);

/** A session opened before the page rendered (connectEarly), until the page adopts it. */
let early: { key: string; close: () => void } | null = null;

/**
 * Opens the screen page's session from the entry script, before React has rendered the page:
 * the page's mount adopts it when it registers the same way (else it is closed). A cold kiosk
 * gets its state while its page is still being put together.
 */
export function connectEarly(page: ScreenPageName, params: ScreenParams): void {
  const screen = screenRegistration(page, params);
  if (!screen || early) return;
  early = { key: sessionKey(screen.registration, screen.options), close: openSession(screen.registration, screen.options) };
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
    const adopted = early && early.key === key && generation === 0 ? early.close : null;
    if (early && !adopted) early.close();
    early = null;
    if (!key) return;
    const close = adopted ?? openSession(JSON.parse(key)[0] as Registration, options);
    return close;
  }, [key, generation]);
}
