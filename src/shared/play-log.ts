/**
 * A screen's proof-of-play log (issue 34), as a plain object driven by the screen (what it shows,
 * how its players do, the time): it keeps one open record per position, closes it when the
 * position shows something else, and cuts every record at each whole minute (so no record spans
 * midnight in any time zone, and a screen that dies loses under a minute). Closed records wait in
 * its buffer (at most PLAYS_BUFFERED, the oldest dropped) until the server has kept them.
 * The screen (web/features/screen/parts/plays.ts) persists the buffer and sends it; the server's rules
 * are in src/shared/plays.ts.
 */
import { PLAY_CUT_MS, PLAYS_BUFFERED, type PlayRecord } from './plays.ts';

export interface Shown {
  position: number;
  stream_id: number;
  scene_id: number | null;
}

interface Open extends Shown {
  from: number;
  playingMs: number;
  /** Since when its picture plays (null: not playing). */
  playingSince: number | null;
}

export interface PlayLog {
  /** What the screen shows now, at `at` (server time, ms). */
  show(shown: readonly Shown[], at: number): void;
  /** Which streams' pictures are playing now. */
  playing(streams: ReadonlySet<number>, at: number): void;
  /** Closes every open record at `at` and opens it again (the minute's cut, or the page going away). */
  cut(at: number): void;
  /** The oldest closed records, up to `max`, to send. */
  pending(max: number): PlayRecord[];
  /** The server kept (or refused for good) these pending records (the ones `pending` gave). */
  sent(records: readonly PlayRecord[]): void;
  /** Records waiting to be sent. */
  size(): number;
}

/** The next whole minute after `at` (server time). */
export const nextCut = (at: number): number => (Math.floor(at / PLAY_CUT_MS) + 1) * PLAY_CUT_MS;

export function createPlayLog(buffer: PlayRecord[] = [], limit = PLAYS_BUFFERED): PlayLog {
  const open = new Map<number, Open>();
  let playingNow: ReadonlySet<number> = new Set();

  const close = (record: Open, at: number) => {
    const playing = record.playingMs + (record.playingSince !== null ? Math.max(0, at - record.playingSince) : 0);
    if (at > record.from) buffer.push({ stream_id: record.stream_id, position: record.position, scene_id: record.scene_id, from: Math.round(record.from), to: Math.round(at), playing_ms: Math.round(Math.min(playing, at - record.from)) });
    if (buffer.length > limit) buffer.splice(0, buffer.length - limit);
  };
  const start = (shown: Shown, at: number): Open => ({ ...shown, from: at, playingMs: 0, playingSince: playingNow.has(shown.stream_id) ? at : null });

  return {
    show(shown, at) {
      const next = new Map(shown.map((s) => [s.position, s]));
      for (const [position, record] of open) {
        const now = next.get(position);
        if (!now || now.stream_id !== record.stream_id || now.scene_id !== record.scene_id) {
          close(record, at);
          open.delete(position);
        }
      }
      for (const s of shown) if (!open.has(s.position)) open.set(s.position, start(s, at));
    },
    playing(streams, at) {
      for (const record of open.values()) {
        const was = record.playingSince !== null;
        const is = streams.has(record.stream_id);
        if (was && !is) {
          record.playingMs += Math.max(0, at - record.playingSince!);
          record.playingSince = null;
        } else if (!was && is) record.playingSince = at;
      }
      playingNow = streams;
    },
    cut(at) {
      for (const [position, record] of open) {
        close(record, at);
        open.set(position, start(record, at));
      }
    },
    pending: (max) => buffer.slice(0, max),
    sent(records) {
      // By identity: while a report was out, the bound may have dropped some of it (and moved the rest).
      const done = new Set(records);
      for (let i = buffer.length - 1; i >= 0; i--) if (done.has(buffer[i]!)) buffer.splice(i, 1);
    },
    size: () => buffer.length,
  };
}
