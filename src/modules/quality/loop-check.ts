/**
 * Is this live stream a recording posing as live? A fresh sample's fingerprint against itself and
 * against the stream's last analyses of the day (analyzer/replay.ts), and its playlist's program
 * time against ours: a live edge whose EXT-X-PROGRAM-DATE-TIME moves at less than half the
 * speed of the clock between two analyses a minute or more apart is replaying.
 */
import { setImmediate as setImmediatePromise } from 'node:timers/promises';
import type { EntityManager } from '../../db.ts';
import type { LoopEvidence } from '../../shared/quality/activity.ts';
import { findReplay, isMoving, unpackFrames, type Fingerprint } from './analyzer/replay.ts';

/** Analyses looked back at, and how far. */
const EARLIER = 6;
const WITHIN_MS = 24 * 3600_000;
const PROGRAM_TIME_MIN_GAP_MS = 60_000;

interface EarlierRow {
  created_at: Date;
  fingerprint: Buffer | null;
  fingerprint_fps: number | null;
  fingerprint_segments: (number | null)[] | null;
  edge_program_time: Date | null;
}

export interface LoopCheck {
  /** The evidence, when it replays; null when nothing says so. */
  evidence: LoopEvidence | null;
  /**
   * Whether this sample could have shown a replay (its frames differ, down to the noise): a sample
   * whose encoder erased a still scene's noise, or a stuck one, proves nothing either way.
   */
  telling: boolean;
}

/**
 * Prints are only ever compared with a stream's last EARLIER within WITHIN_MS: older ones are
 * dropped once a new one is kept (≈ 58 KB each; the analysis row and its figures stay).
 */
export async function forgetOldPrints(em: EntityManager, streamId: number, now: number): Promise<void> {
  await em.execute(
    `update quality_analyses set fingerprint = null, fingerprint_segments = null
      where stream_id = ? and fingerprint is not null
        and (created_at <= ? or id not in (select id from quality_analyses where stream_id = ? and fingerprint is not null order by created_at desc, id desc limit ${EARLIER}))`,
    [streamId, new Date(now - WITHIN_MS), streamId],
  );
}

const iso = (ms: number) => new Date(ms).toISOString();

export async function checkForLoop(em: EntityManager, streamId: number, print: Fingerprint | null, edgeProgramTime: number | null, now: number): Promise<LoopCheck> {
  if (!print && edgeProgramTime === null) return { evidence: null, telling: false };
  const rows = await em.execute<EarlierRow[]>(
    `select created_at, fingerprint, fingerprint_fps, fingerprint_segments, edge_program_time from quality_analyses
      where stream_id = ? and created_at > ? and (fingerprint is not null or edge_program_time is not null)
      order by created_at desc limit ${EARLIER}`,
    [streamId, new Date(now - WITHIN_MS)],
  );
  if (print) {
    const self = findReplay(print, print);
    if (self) {
      return { telling: true, evidence: { kind: 'replay', found_at: iso(now), earlier_at: iso(now), at_seconds: self.newerAt, earlier_at_seconds: self.olderAt, note: `The same moving ${self.seconds} s came twice within one sample (at ${self.olderAt} s and ${self.newerAt} s): a short recording on a loop` } };
    }
    for (const row of rows) {
      const frames = row.fingerprint && row.fingerprint_fps ? unpackFrames(row.fingerprint) : null;
      if (!frames) continue; // none, or an earlier release's print
      // Each comparison takes a few milliseconds of this process's one thread: screens' pushes go between them.
      await setImmediatePromise();
      const earlier: Fingerprint = { fps: row.fingerprint_fps!, frames, segments: row.fingerprint_segments ?? [], takenAt: new Date(row.created_at).getTime() };
      const replay = findReplay(print, earlier);
      if (replay) {
        const then = new Date(row.created_at).getTime();
        return {
          telling: true,
          evidence: {
            kind: 'replay',
            found_at: iso(now),
            earlier_at: iso(then),
            at_seconds: replay.newerAt,
            earlier_at_seconds: replay.olderAt,
            note: `The moving ${replay.seconds} s at ${replay.newerAt} s of this sample were shown before, at ${replay.olderAt} s of the sample of ${iso(then)}: a recording played again`,
          },
        };
      }
    }
  }
  const lastTimed = rows.find((row) => row.edge_program_time !== null);
  if (edgeProgramTime !== null && lastTimed) {
    const then = new Date(lastTimed.created_at).getTime();
    const wall = now - then;
    const program = edgeProgramTime - new Date(lastTimed.edge_program_time!).getTime();
    if (wall >= PROGRAM_TIME_MIN_GAP_MS && program < wall / 2) {
      return {
        telling: true,
        evidence: { kind: 'program-time', found_at: iso(now), earlier_at: iso(then), at_seconds: null, earlier_at_seconds: null, note: `Its playlist's program time moved ${Math.round(program / 1000)} s while ${Math.round(wall / 1000)} s passed: it does not advance with the clock` },
      };
    }
  }
  return { evidence: null, telling: print ? isMoving(print) : edgeProgramTime !== null && lastTimed !== undefined };
}
