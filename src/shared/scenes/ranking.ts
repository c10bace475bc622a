/**
 * `ranked` — "AI Ranked": the best cameras now. One pure rule (table-tested in
 * tests/unit/ranking.test.ts) from what is known of each stream to a score and the words that
 * explain it, and a second one that changes a wall's picks only when it is worth a change.
 *
 * Score = the fused quality score (analysis and people's ratings, 0–100)
 *   + activity now against the camera's normal at this hour: 12 × log2(ratio), from −10 to +30
 *     (4× its usual: +24; unknown — an embedded player, or no normal yet — counts 0)
 *   + daylight at the camera: +5 by day, −25 at night (unknown position: 0)
 *   − 20 while degraded.
 * Not candidates: inactive or offline streams, and recordings posing as live (unless an admin
 * said the recording is fine).
 *
 * A wall's tile changes only when (a) its stream stopped being a candidate — at once — or (b) a
 * candidate scores at least `margin` more and the tile has been on screen `minOnScreenMs`.
 */
import { describeActivity, type ActivityBasis } from '../quality/activity.ts';
import { inDaylight } from './daylight.ts';

export interface RankedStream {
  id: number;
  name: string;
  active: boolean;
  health?: string | undefined;
  quality_score: number | null;
  activity_ratio?: number | null | undefined;
  activity_basis?: ActivityBasis | null | undefined;
  looped?: unknown;
  recording_ok?: boolean | undefined;
  latitude?: number | null | undefined;
  longitude?: number | null | undefined;
}

export interface Ranked {
  id: number;
  name: string;
  score: number;
  /** Why, in words: "activity 4× its usual at this hour, daylight". */
  why: string;
}

/** How picks may change (RANKED_MIN_ON_SCREEN_SECONDS, RANKED_MARGIN). */
export interface PickRules {
  minOnScreenMs: number;
  margin: number;
}

export const DEFAULT_PICK_RULES: PickRules = { minOnScreenMs: 10 * 60_000, margin: 10 };

export interface Pick {
  position: number;
  streamId: number;
  /** When it went on screen (epoch ms). */
  since: number;
  reason: string;
}

/** A change of one tile, said as the activity log and the Screens tab say it. */
export interface PickChange {
  position: number;
  from: number | null;
  to: number;
  reason: string;
}

export function isCandidate(stream: RankedStream): boolean {
  return stream.active && stream.health !== 'offline' && (!stream.looped || stream.recording_ok === true);
}

const clamp = (n: number, low: number, high: number) => Math.min(high, Math.max(low, n));

/** A stream's score now, and why; null when it is no candidate. */
export function rankNow(stream: RankedStream, now: number): Ranked | null {
  if (!isCandidate(stream)) return null;
  const words: string[] = [];
  let score = stream.quality_score ?? 50;
  const ratio = stream.activity_ratio ?? null;
  if (ratio !== null && stream.activity_basis) {
    score += clamp(12 * Math.log2(Math.max(ratio, 0.01)), -10, 30);
    words.push(describeActivity(ratio, stream.activity_basis));
  } else {
    words.push(describeActivity(null, null));
  }
  const day = inDaylight({ latitude: stream.latitude ?? null, longitude: stream.longitude ?? null }, now);
  if (day === true) {
    score += 5;
    words.push('daylight');
  } else if (day === false) {
    score -= 25;
    words.push('night at the camera');
  }
  if (stream.health === 'degraded') {
    score -= 20;
    words.push('degraded');
  }
  return { id: stream.id, name: stream.name, score: Math.round(score * 10) / 10, why: words.join(', ') };
}

/** The candidates, best first (ties: the lower id, so the order never depends on the database). */
export function rankAll(streams: readonly RankedStream[], now: number): Ranked[] {
  return streams
    .map((s) => rankNow(s, now))
    .filter((r): r is Ranked => r !== null)
    .sort((a, b) => b.score - a.score || a.id - b.id);
}

/**
 * The wall's picks after this look: the same picks unless a rule says otherwise, each new one
 * with its reason. `current` are the picks on screen; `ranked` the candidates, best first.
 */
export function choosePicks(current: readonly Pick[], ranked: readonly Ranked[], slots: number, now: number, rules: PickRules = DEFAULT_PICK_RULES): { picks: Pick[]; changes: PickChange[] } {
  const byId = new Map(ranked.map((r) => [r.id, r]));
  const picks: Pick[] = [];
  const changes: PickChange[] = [];
  const taken = new Set<number>();
  // Keep what is still a candidate, for now.
  for (const pick of current) {
    if (pick.position > slots || !byId.has(pick.streamId) || taken.has(pick.streamId)) continue;
    picks.push(pick);
    taken.add(pick.streamId);
  }
  const unused = () => ranked.filter((r) => !taken.has(r.id));
  const place = (position: number, next: Ranked, from: number | null, reason: string) => {
    const old = picks.findIndex((p) => p.position === position);
    if (old >= 0) {
      taken.delete(picks[old]!.streamId);
      picks.splice(old, 1);
    }
    picks.push({ position, streamId: next.id, since: now, reason });
    taken.add(next.id);
    changes.push({ position, from, to: next.id, reason });
  };
  // Empty tiles (and those whose stream stopped being a candidate) take the best unused at once.
  for (let position = 1; position <= slots; position++) {
    if (picks.some((p) => p.position === position)) continue;
    const next = unused()[0];
    if (!next) break;
    const gone = current.find((p) => p.position === position);
    place(position, next, gone?.streamId ?? null, gone ? `${next.name}: ${next.why} (the previous camera is no longer a candidate)` : `${next.name}: ${next.why}`);
  }
  // Then the weakest tile that has been on screen long enough gives way to a clearly better candidate, one at a time.
  for (;;) {
    const challenger = unused()[0];
    if (!challenger) break;
    const weakest = picks
      .filter((p) => now - p.since >= rules.minOnScreenMs)
      .map((p) => ({ pick: p, rank: byId.get(p.streamId)! }))
      .sort((a, b) => a.rank.score - b.rank.score)[0];
    if (!weakest || challenger.score < weakest.rank.score + rules.margin) break;
    place(weakest.pick.position, challenger, weakest.pick.streamId, `${challenger.name} in place of ${weakest.rank.name}: ${challenger.why} (${challenger.score} against ${weakest.rank.score})`);
  }
  picks.sort((a, b) => a.position - b.position);
  return { picks, changes };
}
