/**
 * Proof of play on a wall or kiosk with a device id (issue 34): what it shows and whether each
 * picture plays go into its play log (src/shared/play-log.ts), on the server's clock as the screen
 * estimates it; closed records are kept in the browser's storage (a reload or a reboot while the
 * server is away loses none) and sent with the heartbeats, and dropped once the server answered.
 */
import type { ScreenState } from '../../../src/shared/events.ts';
import { serverTimeAt } from '../../../src/shared/clock.ts';
import { createPlayLog, nextCut, type Shown } from '../../../src/shared/play-log.ts';
import { PLAYS_PER_REPORT, type PlayRecord } from '../../../src/shared/plays.ts';
import type { ScreenClient } from '../../../src/shared/screen-client.ts';
import { store } from '../../lib/store.ts';
import { clockAtom } from './atoms.ts';

const BUFFER_PREFIX = 'nw:plays:';
/** How often a screen sends what it has (its heartbeat's cadence). */
export const PLAYS_SEND_EVERY_MS = 30_000;
/** How long a report may wait for its answer before it is sent again. */
const ANSWER_TIMEOUT_MS = 15_000;

function loadBuffer(key: string): PlayRecord[] {
  try {
    const saved = JSON.parse(localStorage.getItem(BUFFER_PREFIX + key) ?? '[]') as unknown;
    return Array.isArray(saved) ? (saved as PlayRecord[]) : [];
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

/** The server's time now, by the screen's clock estimate (its own clock until it has one). */
const serverNow = () => {
  const clock = store.get(clockAtom);
  return clock ? serverTimeAt(clock, performance.now()) : Date.now();
};

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
  let sending = false;
  let stopped = false;

  const send = () => {
    if (sending || stopped || log.size() === 0 || !client.socket.connected) return;
    const records = log.pending(PLAYS_PER_REPORT);
    sending = true;
    client.socket.timeout(ANSWER_TIMEOUT_MS).emit('screen:plays', { records }, (err, result) => {
      sending = false;
      // Answered (kept, clipped or refused for good): done with them. No answer or an error: again later.
      if (err || 'error' in result) return;
      log.sent(records.length);
      saveBuffer(key, buffer);
      if (log.size() > 0) send();
    });
  };

  let cutTimer: ReturnType<typeof setTimeout> | undefined;
  const scheduleCut = () => {
    const at = serverNow();
    cutTimer = setTimeout(() => {
      log.cut(serverNow());
      saveBuffer(key, buffer);
      scheduleCut();
    }, Math.max(0, nextCut(at) - at));
  };
  scheduleCut();
  const sender = setInterval(send, PLAYS_SEND_EVERY_MS);
  // A page that goes away (a reload, a new build) keeps what it showed until then.
  const onHide = () => {
    log.cut(serverNow());
    saveBuffer(key, buffer);
  };
  window.addEventListener('pagehide', onHide);

  return {
    show(state) {
      log.show(shownOf(state), serverNow());
      saveBuffer(key, buffer);
    },
    playing(streams) {
      log.playing(streams, serverNow());
    },
    flush: send,
    stop() {
      log.show([], serverNow()); // it shows nothing any more: every record closes
      saveBuffer(key, buffer);
      stopped = true;
      clearTimeout(cutTimer);
      clearInterval(sender);
      window.removeEventListener('pagehide', onHide);
    },
  };
}
