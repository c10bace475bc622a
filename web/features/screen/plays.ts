/**
 * Proof of play on a wall or kiosk with a device id (issue 34): what it shows and whether each
 * picture plays go into its play log (src/shared/play-log.ts), timed by the device's own clock
 * and moved onto the server's (by the screen's clock estimate) when sent, so a record never
 * straddles the moment the estimate arrives; closed records are kept in the browser's storage (a
 * reload or a reboot while the server is away loses none), sent with the heartbeats, and dropped
 * once the server answered.
 */
import type { ScreenState } from '../../../src/shared/events.ts';
import { serverTimeAt } from '../../../src/shared/clock.ts';
import { createPlayLog, nextCut, type Shown } from '../../../src/shared/play-log.ts';
import { PLAYS_PER_REPORT, type PlayRecord } from '../../../src/shared/plays.ts';
import type { ScreenClient } from '../../../src/shared/screen-client.ts';
import { later } from '../../lib/later.ts';
import { store } from '../../lib/store.ts';
import { clockAtom } from './atoms.ts';

const BUFFER_PREFIX = 'nw:plays:';
/** How often a screen sends what it has (its heartbeat's cadence). */
export const PLAYS_SEND_EVERY_MS = 30_000;
/** How long a report may wait for its answer before it is sent again. */
const ANSWER_TIMEOUT_MS = 15_000;

const WHOLE = ['stream_id', 'position', 'from', 'to', 'playing_ms'] as const;
function isRecord(r: unknown): r is PlayRecord {
  if (typeof r !== 'object' || r === null) return false;
  const o = r as Record<string, unknown>;
  return WHOLE.every((k) => Number.isSafeInteger(o[k]) && (o[k] as number) >= 0) && (o.scene_id === null || Number.isSafeInteger(o.scene_id)) && Object.keys(o).length === 6;
}

function loadBuffer(key: string): PlayRecord[] {
  try {
    const saved = JSON.parse(localStorage.getItem(BUFFER_PREFIX + key) ?? '[]') as unknown;
    // Only well-formed records: one the server would call malformed would hold up the rest for ever.
    // (A shape check, not the contract's schema: that would bring zod into every screen's code.)
    return Array.isArray(saved) ? saved.filter(isRecord) : [];
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

export interface PlayRecorder {
  show(state: ScreenState | null): void;
  playing(streams: ReadonlySet<number>): void;
  /** Sends what waits now (after a re-registration). */
  flush(): void;
  stop(): void;
}

/**
 * Records what this screen shows while it is open; `client` sends. `key` names the screen page
 * (its registration): pages of one browser keep their records apart.
 */
export function recordPlays(client: ScreenClient, key: string): PlayRecorder {
  const buffer = loadBuffer(key);
  const log = createPlayLog(buffer);
  // Written a second after a change, not in the flip's frame that made it (and at once when the page goes).
  const save = later(() => saveBuffer(key, buffer), 1_000);
  let sending = false;
  let stopped = false;

  const send = () => {
    if (sending || stopped || log.size() === 0 || !client.socket.connected) return;
    const records = log.pending(PLAYS_PER_REPORT);
    const offset = serverOffset();
    const onServerClock = records.map((r) => ({ ...r, from: Math.max(0, r.from + offset), to: Math.max(0, r.to + offset) }));
    sending = true;
    client.socket.timeout(ANSWER_TIMEOUT_MS).emit('screen:plays', { records: onServerClock }, (err, result) => {
      sending = false;
      // Answered (kept, clipped or refused for good): done with them. No answer or an error: again later.
      if (err || 'error' in result) return;
      log.sent(records);
      save.ask();
      if (log.size() > 0) send();
    });
  };

  let cutTimer: ReturnType<typeof setTimeout> | undefined;
  const scheduleCut = () => {
    // At the server's whole minutes (as estimated now), so a record does not span midnight there.
    const offset = serverOffset();
    const at = deviceNow() + offset;
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
    show(state) {
      log.show(shownOf(state), deviceNow());
      save.ask();
    },
    playing(streams) {
      log.playing(streams, deviceNow());
    },
    flush: send,
    stop() {
      log.show([], deviceNow()); // it shows nothing any more: every record closes
      save.now();
      stopped = true;
      clearTimeout(cutTimer);
      clearInterval(sender);
      window.removeEventListener('pagehide', onHide);
    },
  };
}
