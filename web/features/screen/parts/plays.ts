/**
 * Proof of play (issue 34): what this screen shows and whether each picture plays go into its play
 * log (src/shared/play-log.ts), timed by the device's own clock and moved onto the server's (by
 * the screen's clock estimate) when sent, so a record never straddles the moment the estimate
 * arrives; closed records are kept in the browser's storage (a reload or a reboot while the
 * server is away loses none), sent as the `plays` report every 30 s and after each registration,
 * and dropped once the server answered. Screens installed as such record (their address names or
 * groups them), counted as src/shared/plays.ts `playScreen` says; a visitor's browser does not.
 */
import type { ScreenState } from '../../../../src/shared/events.ts';
import { isPlayRecord } from '../../../../src/shared/checks/play-record.check.ts';
import { serverTimeAt } from '../../../../src/shared/clock.ts';
import { createPlayLog, nextCut, type Shown } from '../../../../src/shared/play-log.ts';
import { playScreen, PLAYS_PER_REPORT, type PlayRecord } from '../../../../src/shared/plays.ts';
import { later } from '../../../lib/later.ts';
import { store } from '../../../lib/store.ts';
import { clockAtom, screenStateAtom } from '../atoms.ts';
import { healthReportAtom } from '../playback.ts';
import { definePart, type ScreenSession } from './part.ts';

const BUFFER_PREFIX = 'nw:plays:';
/** How often a screen sends what it has (its heartbeat's cadence). */
export const PLAYS_SEND_EVERY_MS = 30_000;
/** How long a report may wait for its answer before it is sent again. */
const ANSWER_TIMEOUT_MS = 15_000;

function loadBuffer(key: string): PlayRecord[] {
  try {
    const saved = JSON.parse(localStorage.getItem(BUFFER_PREFIX + key) ?? '[]') as unknown;
    // Only records the server would take: one it called malformed would hold up the rest for ever.
    return Array.isArray(saved) ? saved.filter(isPlayRecord) : [];
  } catch {
    return [];
  }
}

function saveBuffer(key: string, records: readonly PlayRecord[]): void {
  try {
    localStorage.setItem(BUFFER_PREFIX + key, JSON.stringify(records));
  } catch {
    /* storage full or refused: kept in memory only */
  }
}

/** What a state puts on screen, position by position. */
export function shownOf(state: ScreenState | null): Shown[] {
  if (!state || (state.kind !== 'wall' && state.kind !== 'kiosk') || state.problem) return [];
  const scene = state.scene?.id ?? null;
  if (state.kind === 'wall') return state.streams.map((s) => ({ position: s.position, stream_id: s.id, scene_id: scene }));
  return state.stream ? [{ position: state.position, stream_id: state.stream.id, scene_id: scene }] : [];
}

/** How far the server's clock is ahead of this device's, by the screen's estimate (0 until it has one). */
const serverOffset = () => {
  const clock = store.get(clockAtom);
  return clock ? Math.round(serverTimeAt(clock, performance.now()) - Date.now()) : 0;
};
const deviceNow = () => Date.now();

/** The screen proof of play counts this session as, if any. */
const countedAs = (session: ScreenSession) => {
  const { registration: r, device } = session;
  return session.installed ? playScreen({ kind: r.kind, device, position: r.kind === 'kiosk' ? r.position : null }) : null;
};

const playingStreams = () => new Set(store.get(healthReportAtom).streams.filter((s) => s.state === 'playing').map((s) => s.stream_id));

export const playsPart = definePart<'plays'>({
  name: 'proof of play',
  runs: (session) => countedAs(session) !== null,
  follows: [screenStateAtom, healthReportAtom],
  reports: ['plays'],
  start(session) {
    // Kept under the screen the server counts them for (a wall, or a kiosk's position), whatever address it came by.
    const key = countedAs(session)!.screen;
    const buffer = loadBuffer(key);
    const log = createPlayLog(buffer);
    // Written a second after a change, not in the flip's frame that made it (and at once when the page goes).
    const save = later(() => saveBuffer(key, buffer), 1_000);
    let sending = false;
    let stopped = false;

    const send = () => {
      if (sending || stopped || log.size() === 0 || !session.registered()) return;
      const records = log.pending(PLAYS_PER_REPORT);
      const offset = serverOffset();
      const onServerClock = records.map((r) => ({ ...r, from: Math.max(0, r.from + offset), to: Math.max(0, r.to + offset) }));
      sending = true;
      void session.ask('plays', { records: onServerClock }, ANSWER_TIMEOUT_MS).then((result) => {
        sending = false;
        // Answered (kept, clipped or refused for good): done with them. No answer or an error: again later.
        if ('error' in result) return;
        log.sent(records);
        save.ask();
        if (log.size() > 0) send();
      });
    };

    let cutTimer: ReturnType<typeof setTimeout> | undefined;
    const scheduleCut = () => {
      // At the server's whole minutes (as estimated now), so a record does not span midnight there.
      const at = deviceNow() + serverOffset();
      cutTimer = setTimeout(() => {
        log.cut(deviceNow());
        save.ask();
        scheduleCut();
      }, Math.max(0, nextCut(at) - at));
    };
    scheduleCut();
    const sender = setInterval(send, PLAYS_SEND_EVERY_MS);
    // A page that goes away (a reload, a new build) keeps what it showed until then.
    const onHide = () => {
      log.cut(deviceNow());
      save.now();
    };
    window.addEventListener('pagehide', onHide);

    return {
      changed() {
        const now = deviceNow();
        log.playing(playingStreams(), now);
        log.show(shownOf(store.get(screenStateAtom)), now);
        save.ask();
      },
      // What it showed while away goes now.
      registered: send,
      stop() {
        log.show([], deviceNow()); // it shows nothing any more: every record closes
        save.now();
        stopped = true;
        clearTimeout(cutTimer);
        clearInterval(sender);
        window.removeEventListener('pagehide', onHide);
      },
    };
  },
});
