/**
 * Quality's read model for activity: a camera's earlier activity at an hour (its own analyses),
 * its category's (a join with the stream pool, for speed: one statement), and each stream's
 * day in 24 hours — from the analyses quality keeps.
 */
import type { EntityManager } from '../../db.ts';

const OWN_DAYS = 14;
const CATEGORY_DAYS = 2;
/** Faults that mean the camera did not show a live picture. */
const NOT_LIVE = ['unreachable', 'frozen', 'black', 'not-live', 'looped', 'no-video'];

/** The hour before, the hour and the hour after, as a PostgreSQL array literal (one parameter). */
const around = (hour: number) => `{${[(hour + 23) % 24, hour, (hour + 1) % 24].join(',')}}`;

/** Earlier activity within an hour of `hour` (local): the stream's own, and other streams' of its category. */
export async function activityAround(em: EntityManager, stream: { id: number; category: string }, hour: number, now: number): Promise<{ own: number[]; category: number[] }> {
  const hours = around(hour);
  const [own, category] = await Promise.all([
    em.execute<{ activity: number }[]>(
      `select activity from quality_analyses where stream_id = ? and activity is not null and local_hour = any(?::smallint[]) and created_at > ? order by created_at desc limit 200`,
      [stream.id, hours, new Date(now - OWN_DAYS * 86_400_000)],
    ),
    em.execute<{ activity: number }[]>(
      `select qa.activity from quality_analyses qa join streams s on s.id = qa.stream_id
        where s.category = ? and qa.stream_id <> ? and qa.activity is not null and qa.local_hour = any(?::smallint[]) and qa.created_at > ?
        order by qa.created_at desc limit 500`,
      [stream.category, stream.id, hours, new Date(now - CATEGORY_DAYS * 86_400_000)],
    ),
  ]);
  return { own: own.map((r) => Number(r.activity)), category: category.map((r) => Number(r.activity)) };
}

export interface HourProfile {
  hour: number;
  analyses: number;
  /** Share of its analyses at that hour that found a live picture (0–1), null without any. */
  live_share: number | null;
  /** Share that found it dark (night at the camera, or black). */
  dark_share: number | null;
  /** Median activity at that hour (grey levels), null when never measured. */
  activity: number | null;
}

/** The stream's last 30 days by hour of its local day: 24 entries, hour 0 first. */
export async function dailyProfile(em: EntityManager, streamId: number, now: number): Promise<HourProfile[]> {
  const rows = await em.execute<{ hour: number; analyses: number; live: number | null; dark: number | null; activity: number | null }[]>(
    `select local_hour as hour, count(*)::int as analyses,
        avg(case when jsonb_exists_any(faults, ?::text[]) then 0 else 1 end)::float as live,
        avg(case when dark then 1 when dark is null then null else 0 end)::float as dark,
        percentile_cont(0.5) within group (order by activity) as activity
      from quality_analyses where stream_id = ? and local_hour is not null and created_at > ?
      group by local_hour`,
    [`{${NOT_LIVE.join(',')}}`, streamId, new Date(now - 30 * 86_400_000)],
  );
  const byHour = new Map(rows.map((r) => [Number(r.hour), r]));
  const round = (n: number | null) => (n === null ? null : Math.round(Number(n) * 100) / 100);
  return Array.from({ length: 24 }, (_, hour) => {
    const r = byHour.get(hour);
    return { hour, analyses: r?.analyses ?? 0, live_share: round(r?.live ?? null), dark_share: round(r?.dark ?? null), activity: round(r?.activity ?? null) };
  });
}

/** Streams whose profile says the coming hour is worth a look: livelier then than over their whole day. */
export async function worthCheckingAt(em: EntityManager, hourOf: (timezone: string | null, longitude: number | null) => number, limit: number): Promise<number[]> {
  const rows = await em.execute<{ id: number; timezone: string | null; longitude: number | null; hour: number; at_hour: number; overall: number }[]>(
    `with per_hour as (
        select qa.stream_id, qa.local_hour, percentile_cont(0.5) within group (order by qa.activity) as act
        from quality_analyses qa where qa.activity is not null and qa.created_at > now() - interval '14 days' group by qa.stream_id, qa.local_hour),
      overall as (select stream_id, percentile_cont(0.5) within group (order by act) as med from per_hour group by stream_id)
      select s.id, s.timezone, s.longitude, p.local_hour as hour, p.act as at_hour, o.med as overall
        from per_hour p join overall o on o.stream_id = p.stream_id join streams s on s.id = p.stream_id
        where s.active and s.health <> 'offline' and p.act > o.med`,
  );
  const due = rows.filter((r) => hourOf(r.timezone, r.longitude === null ? null : Number(r.longitude)) === Number(r.hour));
  return due.sort((a, b) => Number(b.at_hour) / Math.max(0.5, Number(b.overall)) - Number(a.at_hour) / Math.max(0.5, Number(a.overall))).slice(0, limit).map((r) => r.id);
}
