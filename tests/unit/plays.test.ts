/** Proof of play's rules (src/shared/plays.ts) and a screen's play log (src/shared/play-log.ts), as plain functions. */
import { describe, expect, it } from 'vitest';
import { createPlayLog, nextCut } from '../../src/shared/play-log.ts';
import { assignedPart, judgePlays, MAX_PLAY_RECORD_MS, PLAY_CLOCK_TOLERANCE_MS, PLAYS_BUFFERED, type Assignment, type PlayRecord } from '../../src/shared/plays.ts';

const NOW = Date.UTC(2026, 10, 26, 12, 0, 0);
const DAY = 86_400_000;
const rec = (from: number, to: number, extra: Partial<PlayRecord> = {}): PlayRecord => ({ stream_id: 7, position: 1, scene_id: 3, from, to, playing_ms: to - from, ...extra });
/** Stream 7 everywhere since long before: the rules below other than the assignment's. */
const ALWAYS_7: Assignment[] = [{ from: NOW - 100 * DAY, streams: [7, 7, 7, 7, 7] }];
const rules = (extra: Partial<Parameters<typeof judgePlays>[1]> = {}) => ({ now: NOW, position: null, keptUntil: new Map<number, number>(), retentionMs: 90 * DAY, assignments: ALWAYS_7, slackMs: 800, ...extra });

describe('what the server believes of a screen (judgePlays)', () => {
  it.each([
    ['a minute that has passed', rec(NOW - 120_000, NOW - 60_000), 'kept', [NOW - 120_000, NOW - 60_000, 60_000]],
    ['one that ends after now: clipped to now', rec(NOW - 30_000, NOW + 4_000), 'clipped', [NOW - 30_000, NOW, 30_000]],
    ['more playing than its length: clipped to its length', rec(NOW - 60_000, NOW - 30_000, { playing_ms: 45_000 }), 'clipped', [NOW - 60_000, NOW - 30_000, 30_000]],
    ['nothing long', rec(NOW - 60_000, NOW - 60_000), 'empty', null],
    ['backwards', rec(NOW - 60_000, NOW - 61_000), 'empty', null],
    ['longer than a screen cuts', rec(NOW - MAX_PLAY_RECORD_MS - 60_000, NOW - 59_000), 'too-long', null],
    ['starting in the future', rec(NOW + PLAY_CLOCK_TOLERANCE_MS + 1, NOW + PLAY_CLOCK_TOLERANCE_MS + 30_000), 'future', null],
    ['older than the retention', rec(NOW - 91 * DAY, NOW - 91 * DAY + 60_000), 'too-old', null],
    ['older than any backlog a screen keeps', rec(NOW - 8 * DAY, NOW - 8 * DAY + 60_000), 'too-old', null],
    ['six days old: a backlog', rec(NOW - 6 * DAY, NOW - 6 * DAY + 60_000), 'kept', [NOW - 6 * DAY, NOW - 6 * DAY + 60_000, 60_000]],
  ] as const)('%s', (_name, record, verdict, kept) => {
    const { keep, verdicts } = judgePlays([record], rules());
    expect(verdicts).toEqual([verdict]);
    expect(keep.map((k) => [k.record.from, k.record.to, k.record.playing_ms])).toEqual(kept ? [kept] : []);
  });

  it('lets a kiosk report only its own position', () => {
    const { verdicts } = judgePlays([rec(NOW - 60_000, NOW, { position: 2 }), rec(NOW - 60_000, NOW, { position: 3 })], rules({ position: 3 }));
    expect(verdicts).toEqual(['not-its-position', 'kept']);
  });

  it('never counts a second of a position twice: resent, overlapping or already kept', () => {
    const a = rec(NOW - 180_000, NOW - 120_000);
    const b = rec(NOW - 150_000, NOW - 60_000); // overlaps a by 30 s
    const { keep, verdicts } = judgePlays([b, a, a], rules({ keptUntil: new Map([[1, NOW - 170_000]]) }));
    // In time order: a (clipped to start where the kept time ends), a again (covered), b (clipped after a).
    expect(verdicts).toEqual(['clipped', 'clipped', 'covered']);
    const total = keep.reduce((sum, k) => sum + (k.record.to - k.record.from), 0);
    expect(total).toBe(110_000); // from NOW-170 s to NOW-60 s, once
    expect(keep.map((k) => k.index)).toEqual([1, 0]);
  });

  it('keeps positions apart: a wall shows five things at once', () => {
    const { verdicts } = judgePlays([rec(NOW - 60_000, NOW, { position: 1 }), rec(NOW - 60_000, NOW, { position: 2 })], rules());
    expect(verdicts).toEqual(['kept', 'kept']);
  });
});

describe('only what was assigned counts (assignedPart, judgePlays)', () => {
  const T = NOW - 10 * 60_000;
  // Stream 7 at position 1 from T, 8 from T + 60 s, 7 again from T + 120 s, nothing from T + 180 s; 9 at position 2 throughout.
  const history: Assignment[] = [
    { from: T, streams: [7, 9, null, null, null] },
    { from: T + 60_000, streams: [8, 9, null, null, null] },
    { from: T + 120_000, streams: [7, 9, null, null, null] },
    { from: T + 180_000, streams: [null, 9, null, null, null] },
  ];
  const SLACK = 1_000;

  it.each([
    ['inside its stretch', rec(T + 10_000, T + 50_000), 'kept', [T + 10_000, T + 50_000]],
    ['running past its stretch by less than the slack', rec(T + 10_000, T + 60_900), 'kept', [T + 10_000, T + 60_900]],
    ['starting before its stretch by less than the slack (a clock a little fast)', rec(T - 900, T + 30_000), 'kept', [T - 900, T + 30_000]],
    ['running past its stretch by more than the slack: clipped at the slack', rec(T + 30_000, T + 75_000), 'clipped', [T + 30_000, T + 61_000]],
    ['starting before any assignment: clipped to the first', rec(T - 30_000, T + 30_000), 'clipped', [T - SLACK, T + 30_000]],
    ['a time the screen showed something else', rec(T + 65_000, T + 115_000), 'not-assigned', null],
    ['before anything was assigned', rec(T - 120_000, T - 60_000), 'not-assigned', null],
    ['after the position was emptied', rec(T + 200_000, T + 240_000), 'not-assigned', null],
    ['a stream at another position than assigned', rec(T + 10_000, T + 50_000, { stream_id: 9 }), 'not-assigned', null],
    ['the second stretch of the same stream', rec(T + 125_000, T + 170_000), 'kept', [T + 125_000, T + 170_000]],
    ['the position whose stream never changed', rec(T + 170_000, T + 230_000, { stream_id: 9, position: 2 }), 'kept', [T + 170_000, T + 230_000]],
  ] as const)('%s', (_name, record, verdict, kept) => {
    const { keep, verdicts } = judgePlays([record], rules({ assignments: history, slackMs: SLACK }));
    expect(verdicts).toEqual([verdict]);
    expect(keep.map((k) => [k.record.from, k.record.to])).toEqual(kept ? [kept] : []);
  });

  it('takes the longest part where a record meets two stretches of its stream', () => {
    // 7 from T to T+60 s and again from T+120 s: a record over both keeps the longer side only.
    expect(assignedPart(history, 1, 7, T + 50_000, T + 150_000, 0)).toEqual({ from: T + 120_000, to: T + 150_000 });
    expect(assignedPart(history, 1, 7, T + 20_000, T + 130_000, 0)).toEqual({ from: T + 20_000, to: T + 60_000 });
  });

  it('knows no stream without a history', () => {
    expect(assignedPart([], 1, 7, T, T + 60_000, SLACK)).toBeNull();
    expect(judgePlays([rec(T, T + 60_000)], rules({ assignments: [] })).verdicts).toEqual(['not-assigned']);
  });

  it('an empty position is no stream\'s', () => {
    expect(assignedPart(history, 3, 7, T, T + 60_000, SLACK)).toBeNull();
  });
});

describe('a screen\'s play log (createPlayLog)', () => {
  const T = Date.UTC(2026, 10, 26, 9, 0, 10); // ten seconds past a minute

  it('closes a position when it shows something else, and counts its playing time', () => {
    const log = createPlayLog();
    log.playing(new Set([7]), T);
    log.show([{ position: 1, stream_id: 7, scene_id: 3 }, { position: 2, stream_id: 8, scene_id: 3 }], T);
    log.playing(new Set([7, 8]), T + 4_000); // the second picture started after 4 s
    log.playing(new Set([8]), T + 20_000); // the first stalled for 10 s
    log.playing(new Set([7, 8]), T + 30_000);
    log.show([{ position: 1, stream_id: 9, scene_id: 4 }, { position: 2, stream_id: 8, scene_id: 4 }], T + 40_000);
    expect(log.pending(10)).toEqual([
      { stream_id: 7, position: 1, scene_id: 3, from: T, to: T + 40_000, playing_ms: 30_000 },
      { stream_id: 8, position: 2, scene_id: 3, from: T, to: T + 40_000, playing_ms: 36_000 },
    ]);
    log.sent(log.pending(2));
    log.show([], T + 45_000);
    expect(log.pending(10)).toEqual([
      { stream_id: 9, position: 1, scene_id: 4, from: T + 40_000, to: T + 45_000, playing_ms: 0 },
      { stream_id: 8, position: 2, scene_id: 4, from: T + 40_000, to: T + 45_000, playing_ms: 5_000 },
    ]);
  });

  it('cuts at whole minutes, so the totals of the pieces are the whole', () => {
    const log = createPlayLog();
    log.show([{ position: 1, stream_id: 7, scene_id: null }], T);
    let at = T;
    for (let i = 0; i < 3; i++) {
      at = nextCut(at);
      log.cut(at);
    }
    log.show([], at + 5_000);
    const pieces = log.pending(10);
    expect(pieces.map((p) => p.from % 60_000 === 0 || p.from === T)).toEqual([true, true, true, true]);
    expect(pieces.reduce((s, p) => s + p.to - p.from, 0)).toBe(at + 5_000 - T);
    expect(nextCut(T)).toBe(T - 10_000 + 60_000);
  });

  it('keeps at most its bound while the server is away, dropping the oldest', () => {
    const log = createPlayLog([], 3);
    for (let i = 0; i < 5; i++) {
      log.show([{ position: 1, stream_id: 10 + i, scene_id: null }], T + i * 1_000);
    }
    log.show([], T + 5_000);
    expect(log.size()).toBe(3);
    expect(log.pending(10).map((p) => p.stream_id)).toEqual([12, 13, 14]);
    expect(PLAYS_BUFFERED).toBeGreaterThan(1_000);
  });

  it('drops only what was sent when the bound dropped records while a report was out', () => {
    const log = createPlayLog([], 3);
    for (let i = 0; i < 3; i++) log.show([{ position: 1, stream_id: 10 + i, scene_id: null }], T + i * 1_000);
    log.show([], T + 3_000); // 10, 11, 12 closed
    const out = log.pending(2); // 10 and 11 sent
    log.show([{ position: 1, stream_id: 13, scene_id: null }], T + 4_000);
    log.show([], T + 5_000); // 13 closes: the bound drops 10
    log.sent(out);
    expect(log.pending(10).map((p) => p.stream_id)).toEqual([12, 13]);
  });
});
