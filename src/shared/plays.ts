/**
 * Proof of play (issue 34): what a wall or kiosk says it showed — a stream at a position from one
 * instant to another, and how much of that its picture was playing — and the rules the server
 * applies before it keeps any of it, as plain functions (table-tested in tests/unit/plays.test.ts).
 *
 * A screen cuts what it shows into records of at most PLAY_CUT_MS (so a screen that dies loses
 * little), keeps them while its server is away, and sends them with its heartbeats. The server
 * never takes a screen's word for more time than has passed, nor for what it showed: a record is
 * refused when it is not the screen's own (a kiosk reports only its position), malformed, from the
 * future or older than the retention, or for a stream the server did not assign that screen and
 * position at that time (issue 41: its assignment history, within a slack of the flip lead and
 * the screen's clock bound); it is clipped when it runs past its assignment or now, overlaps time
 * already kept for that screen and position, or claims more playing than its length.
 */
import type { PlayRecord } from './api/play-record.ts';

export type { PlayRecord } from './api/play-record.ts';

/** A screen closes its open records this often (ms) and starts new ones. */
export const PLAY_CUT_MS = 60_000;
/** A record longer than this is not a screen's (a cut is PLAY_CUT_MS, plus a late timer). */
export const MAX_PLAY_RECORD_MS = 5 * 60_000;
/** How far ahead of the server's clock a record may end (screens' clocks drift; theirs is corrected by the estimate). */
export const PLAY_CLOCK_TOLERANCE_MS = 5_000;
/** Records in one report at most (a screen away for long sends its backlog over several). */
export const PLAYS_PER_REPORT = 120;
/** Records a screen keeps while its server is away: 5 positions × a minute each for over 13 hours. */
export const PLAYS_BUFFERED = 4_000;
/**
 * How old a record may be when it arrives: a screen keeps at most PLAYS_BUFFERED (13 hours of
 * five positions) while its server is away, so a week is generous; older is not a screen's
 * backlog (and a fresh device id cannot write months of history).
 */
export const MAX_PLAY_AGE_MS = 7 * 86_400_000;
/** Days proof of play is kept by default (PLAYS_RETENTION_DAYS). */
export const PLAYS_RETENTION_DAYS = 90;

/**
 * What was not kept as sent: clipped (kept, shortened), or why refused — counted per reason (the
 * metrics, the logs and the Proof of play tab say which). `not-assigned`: the screen was told to
 * show something else at that position then; `never-assigned`: it was never told to show that
 * stream at that position.
 */
export const PLAY_REFUSALS = ['clipped', 'not-its-position', 'empty', 'too-long', 'future', 'too-old', 'not-assigned', 'never-assigned', 'covered', 'unknown-stream'] as const;
export type PlayVerdict = 'kept' | (typeof PLAY_REFUSALS)[number];

/**
 * What the server told a screen to show from an instant on (the change's flip instant, or when it
 * registered), until the next one: stream ids by position (`streams[position - 1]`, null: nothing there).
 */
export interface Assignment {
  from: number;
  streams: readonly (number | null)[];
}

/**
 * The part of [from, to) the screen was assigned `streamId` at `position`, by its history
 * (`assignments`, in time order), each stretch widened by `slackMs` both ways (a screen flips on
 * its own estimate of the server's clock, and one told late flips late); where the record meets
 * several stretches, the longest part. Null: none.
 */
export function assignedPart(assignments: readonly Assignment[], position: number, streamId: number, from: number, to: number, slackMs: number): { from: number; to: number } | null {
  let best: { from: number; to: number } | null = null;
  let start: number | null = null;
  const consider = (end: number) => {
    const part = { from: Math.max(from, start! - slackMs), to: Math.min(to, end + slackMs) };
    if (part.to > part.from && (!best || part.to - part.from > best.to - best.from)) best = part;
    start = null;
  };
  for (let i = 0; i < assignments.length; i++) {
    const shows = assignments[i]!.streams[position - 1] === streamId;
    if (shows && start === null) start = assignments[i]!.from;
    else if (!shows && start !== null) consider(assignments[i]!.from);
  }
  if (start !== null) consider(Infinity);
  return best;
}

export interface PlayRules {
  now: number;
  /** A kiosk reports only its own position; a wall any. */
  position: number | null;
  /** Where each position's kept time ends for this screen (records before it were already counted). */
  keptUntil: ReadonlyMap<number, number>;
  retentionMs: number;
  /** What the server told this screen to show over the records' time (in time order, the one before included). */
  assignments: readonly Assignment[];
  /** How far a record may run past its assignment either way (the flip lead and the screen's clock bound). */
  slackMs: number;
}

/**
 * The records to keep, clipped (each with its index in `records`), and a verdict for each record
 * sent (in order; `not-assigned` also where it was never assigned: the caller, who can ask the
 * whole history, tells the two apart). Records of one
 * position are taken in time order, each starting no earlier than the last kept end, so no second
 * of a position is counted twice, however often it is sent.
 */
export function judgePlays(records: readonly PlayRecord[], rules: PlayRules): { keep: { index: number; record: PlayRecord }[]; verdicts: PlayVerdict[] } {
  const verdicts: PlayVerdict[] = new Array(records.length);
  const keep: { index: number; record: PlayRecord }[] = [];
  const until = new Map(rules.keptUntil);
  const order = records.map((r, i) => i).sort((a, b) => records[a]!.from - records[b]!.from || a - b);
  for (const i of order) {
    const r = records[i]!;
    if (rules.position !== null && r.position !== rules.position) verdicts[i] = 'not-its-position';
    else if (r.to <= r.from) verdicts[i] = 'empty';
    else if (r.to - r.from > MAX_PLAY_RECORD_MS) verdicts[i] = 'too-long';
    else if (r.from > rules.now + PLAY_CLOCK_TOLERANCE_MS) verdicts[i] = 'future';
    else if (r.to < rules.now - Math.min(rules.retentionMs, MAX_PLAY_AGE_MS)) verdicts[i] = 'too-old';
    else {
      const part = assignedPart(rules.assignments, r.position, r.stream_id, r.from, r.to, rules.slackMs);
      if (!part) {
        verdicts[i] = 'not-assigned';
        continue;
      }
      const from = Math.max(part.from, until.get(r.position) ?? -Infinity);
      const to = Math.min(part.to, rules.now);
      if (to <= from) {
        verdicts[i] = 'covered';
        continue;
      }
      const playing = Math.min(r.playing_ms, to - from);
      verdicts[i] = from !== r.from || to !== r.to || playing !== r.playing_ms ? 'clipped' : 'kept';
      keep.push({ index: i, record: { ...r, from, to, playing_ms: playing } });
      until.set(r.position, to);
    }
  }
  return { keep, verdicts };
}

/**
 * Which screen proof of play is counted for — one rule for the screen that records and the server
 * that keeps: a wall, or a kiosk at its position, of a browser with a device id. One browser may
 * run a wall and kiosks side by side, each a screen of its own: `screen` names it among its
 * browser's screens (where the browser keeps its records), `key` among every screen (the device
 * its records are kept under). Null: it counts as no screen.
 */
export function playScreen(s: { kind: string; device: string | null | undefined; position: number | null | undefined }): { screen: string; key: string } | null {
  if (!s.device) return null;
  if (s.kind === 'wall') return { screen: 'wall', key: s.device };
  if (s.kind === 'kiosk' && typeof s.position === 'number') return { screen: `kiosk-${s.position}`, key: `${s.device}#kiosk-${s.position}` };
  return null;
}

/** What the console's report groups by. */
export const PLAY_GROUPS = ['stream', 'screen', 'day'] as const;
export type PlayGroup = (typeof PLAY_GROUPS)[number];
