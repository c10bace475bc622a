/**
 * Each screen's assignment history (issue 41), as proof of play keeps it: what the programme's
 * feed says a screen here was told (programme/screen-assignments.ts) is queued and written in
 * batches, off the push's path — a change that moves a thousand screens costs one insert a
 * moment later, not a thousand before the push. A row that repeats the screen's previous one
 * is not written. A write that fails (the database away) is tried again; what waits is bounded.
 */
import type { EntityManager, Orm } from '../../db.ts';
import type { Logger } from '../../logger.ts';
import { playScreen, type Assignment } from '../../shared/plays.ts';
import type { ToldAssignment } from '../programme/screen-assignments.ts';

/** How long a told assignment waits for others to share its write (ms). */
const BATCH_MS = 50;
/** Retry a failed write after this long (ms). */
const RETRY_MS = 2_000;
/** Assignments waiting to be written at most (a long outage drops the oldest: their screens' records of then are refused). */
const MAX_WAITING = 50_000;

interface Row {
  screen: string;
  from_at: string;
  scene_id: number | null;
  streams: (number | null)[];
  /** The first row of its screen in a batch: written only if it differs from the row before it in the table. */
  first: boolean;
}

export interface AssignmentLog {
  /** What the programme told a screen (the feed's listener). */
  note(told: ToldAssignment): void;
  /** Resolves once everything noted so far is written (or has failed and waits for its retry). */
  flush(): Promise<void>;
}

export function createAssignmentLog(deps: { orm: Orm; logger: Logger }): AssignmentLog {
  let waiting: { screen: string; at: number; sceneId: number | null; streams: (number | null)[] }[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  let writing: Promise<void> = Promise.resolve();

  const schedule = (ms: number) => {
    if (timer) return;
    timer = setTimeout(() => {
      timer = undefined;
      void flush();
    }, ms);
    timer.unref();
  };

  async function write(batch: typeof waiting): Promise<void> {
    try {
      await writeAssignments(deps.orm.em.fork(), batch);
    } catch (err) {
      deps.logger.warn({ err, waiting: batch.length }, 'proof of play: could not keep what screens were assigned; trying again');
      waiting = [...batch, ...waiting].slice(-MAX_WAITING);
      schedule(RETRY_MS);
    }
  }

  function flush(): Promise<void> {
    clearTimeout(timer);
    timer = undefined;
    if (waiting.length > 0) {
      const batch = waiting;
      waiting = [];
      writing = writing.then(() => write(batch));
    }
    return writing;
  }

  return {
    note(told) {
      const counted = playScreen(told);
      if (!counted) return;
      waiting.push({ screen: counted.key, at: told.at, sceneId: told.sceneId, streams: told.streams });
      if (waiting.length > MAX_WAITING) waiting.splice(0, waiting.length - MAX_WAITING);
      schedule(BATCH_MS);
    },
    flush,
  };
}

/** Writes assignments (any order, several per screen): each screen's in time order, none that repeats the one before it. */
export async function writeAssignments(em: EntityManager, told: readonly { screen: string; at: number; sceneId: number | null; streams: readonly (number | null)[] }[]): Promise<void> {
  const sorted = [...told].sort((a, b) => (a.screen < b.screen ? -1 : a.screen > b.screen ? 1 : a.at - b.at));
  const rows: Row[] = [];
  for (const t of sorted) {
    const before = rows.at(-1);
    const same = before?.screen === t.screen;
    if (same && before.streams.join(',') === t.streams.join(',')) continue;
    rows.push({ screen: t.screen, from_at: new Date(t.at).toISOString(), scene_id: t.sceneId, streams: [...t.streams], first: !same });
  }
  if (rows.length === 0) return;
  await em.execute(
    `insert into play_assignments (screen, from_at, scene_id, streams)
      select v.screen, v.from_at, v.scene_id, v.streams
      from jsonb_to_recordset(?::jsonb) as v(screen text, from_at timestamptz, scene_id int, streams int[], first boolean)
      where not v.first or not exists (
        select 1 from (
          select a.streams from play_assignments a where a.screen = v.screen and a.from_at <= v.from_at order by a.from_at desc limit 1
        ) previous where previous.streams = v.streams
      )
      on conflict do nothing`,
    [JSON.stringify(rows)],
    'run',
  );
}

/** A screen's assignments over [from, to]: the one in force at `from` and every later one up to `to`, in time order. */
export async function assignmentsBetween(em: EntityManager, screen: string, from: number, to: number): Promise<Assignment[]> {
  const rows = await em.execute<{ from_at: string; streams: (number | null)[] }[]>(
    `(select from_at, streams from play_assignments where screen = ? and from_at <= ?::timestamptz order by from_at desc limit 1)
      union all
      (select from_at, streams from play_assignments where screen = ? and from_at > ?::timestamptz and from_at <= ?::timestamptz)
      order by from_at`,
    [screen, new Date(from).toISOString(), screen, new Date(from).toISOString(), new Date(to).toISOString()],
    'all',
  );
  return rows.map((r) => ({ from: new Date(r.from_at).getTime(), streams: r.streams }));
}

/** Of these (position, stream) pairs, those the screen was ever assigned (as `position:stream`). */
export async function everAssigned(em: EntityManager, screen: string, pairs: readonly { position: number; stream: number }[]): Promise<Set<string>> {
  if (pairs.length === 0) return new Set();
  const rows = await em.execute<{ position: number; stream: number }[]>(
    `select v.position, v.stream from jsonb_to_recordset(?::jsonb) as v(position int, stream int)
      where exists (select 1 from play_assignments a where a.screen = ? and a.streams[v.position] = v.stream)`,
    [JSON.stringify(pairs), screen],
    'all',
  );
  return new Set(rows.map((r) => `${r.position}:${r.stream}`));
}

/** Deletes what no record within the retention can need: rows a later row took over from before `before`. */
export async function forgetAssignments(em: EntityManager, before: number): Promise<void> {
  await em.execute(
    `delete from play_assignments a where a.from_at < ?::timestamptz
      and exists (select 1 from play_assignments b where b.screen = a.screen and b.from_at > a.from_at and b.from_at <= ?::timestamptz)`,
    [new Date(before).toISOString(), new Date(before).toISOString()],
    'run',
  );
}
