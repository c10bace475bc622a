/**
 * A stream's uptime: its health changes (stream_health_changes, written with each change of its
 * health in stream-quality.ts) read as the share of the last day and week it was live
 * (src/shared/uptime.ts). Degraded and offline are not live; before its first check nothing is known.
 */
import type { EntityManager } from '../../db.ts';
import { notFound } from '../../domain/errors.ts';
import type { UptimeDto } from '../../shared/api/uptime.ts';
import type { HealthState } from '../../shared/quality/health.ts';
import { HOUR_MS, UPTIME_WINDOWS, uptimeOver, type UptimeTransition } from '../../shared/uptime.ts';
import { StreamHealthChange } from './stream-health-change.entity.ts';
import type { Stream } from './stream.entity.ts';

/** Changes older than the longest window (and a day's margin) are dropped, but for the last one before it. */
const KEEP_MS = (UPTIME_WINDOWS.week + 24) * HOUR_MS;

const iso = (ms: number) => new Date(ms).toISOString();

/** Records that the stream took this health at `at` (in the transaction that changed it), and drops what no window needs any more. */
export async function recordHealthChange(tx: EntityManager, stream: Stream, health: HealthState, at: Date): Promise<void> {
  tx.create(StreamHealthChange, { stream, health, at });
  const cutoff = iso(at.getTime() - KEEP_MS);
  await tx.execute(
    `delete from stream_health_changes where stream_id = ? and at < ?::timestamptz
      and id <> (select id from stream_health_changes where stream_id = ? and at < ?::timestamptz order by at desc, id desc limit 1)`,
    [stream.id, cutoff, stream.id, cutoff],
    'run',
  );
}

const upOf = (health: string): boolean | null => (health === 'live' ? true : health === 'unknown' ? null : false);

/** The stream's uptime over the last day and week; 404 for a stream that does not exist. */
export async function streamUptime(em: EntityManager, streamId: number, now = Date.now()): Promise<UptimeDto> {
  const from = now - UPTIME_WINDOWS.week * HOUR_MS;
  // The changes inside the week, and the last one before it (the health the week starts in).
  const rows = await em.execute<{ at: number; health: string }[]>(
    `select (extract(epoch from c.at) * 1000)::float8 as at, c.health
      from (
        (select id, at, health from stream_health_changes where stream_id = ? and at >= ?::timestamptz and at < ?::timestamptz)
        union all
        (select id, at, health from stream_health_changes where stream_id = ? and at < ?::timestamptz order by at desc, id desc limit 1)
      ) c
      order by c.at, c.id`,
    [streamId, iso(from), iso(now), streamId, iso(from)],
    'all',
  );
  if (rows.length === 0 && !(await em.execute<unknown[]>('select 1 from streams where id = ?', [streamId], 'all')).length) {
    throw notFound(`Stream not found: ${streamId}`);
  }
  const transitions: UptimeTransition[] = rows.map((r) => ({ at: r.at, up: upOf(r.health) }));
  const window = (hours: number) => ({
    ...uptimeOver({ from: now - hours * HOUR_MS, to: now, before: null, transitions }),
    from: iso(now - hours * HOUR_MS),
    to: iso(now),
  });
  return { day: window(UPTIME_WINDOWS.day), week: window(UPTIME_WINDOWS.week) };
}
